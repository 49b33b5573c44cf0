// The exercise of page 10 with the code it asks you to change deleted: the upload server is there, but no photo is
// sent, and the program ends at once, normally.
import LessonKit

let photos = UploadServer.photos
let maxUploads = UploadServer.maxUploads

//: ## Yours to change
