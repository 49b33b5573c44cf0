#!/usr/bin/env python3
"""Make the tutorial's photos: 400x300 binary PPMs (P6, 8-bit RGB) from scikit-image's sample photos.

Only the colour photos that scikit-image documents as public domain or CC0 are used. Each one is
cropped about its centre (or a chosen point) to 4:3, so nothing is stretched, then shrunk to 400x300.
400x300 is the largest 4:3 size that no photo has to be enlarged for (chelsea is 451x300), and six of
them come to about 2.2 MB: large enough that a tilt-shift is tens of milliseconds of real work.

How to run it, from the package root (needs Python 3.10 or later, network access to PyPI):

    pip download scikit-image==0.26.0 --no-deps --only-binary=:all: -d /tmp/skimage-wheel
    python3 -m venv /tmp/photos-venv && /tmp/photos-venv/bin/pip install pillow==13.0.0
    /tmp/photos-venv/bin/python assets/tools/make-photos.py /tmp/skimage-wheel/scikit_image-0.26.0-*.whl

The argument is a scikit-image wheel, any platform's: only its skimage/data folder is read, and
nothing is installed or imported from it. The script replaces assets/photos/*.ppm and
assets/CREDITS.md; run again with the same wheel and Pillow, it writes the same bytes. Before writing anything it checks that every licence sentence quoted below still
appears in that scikit-image's documentation of the photo, so a release that changed a licence
stops the run instead of shipping a photo under terms it no longer has.
"""

import argparse
import ast
import io
import re
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

WIDTH, HEIGHT = 400, 300
ASSETS = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Photo:
    name: str  # the file name in assets/photos, without .ppm
    file: str  # the file in skimage/data
    loader: str  # the skimage.data function whose docstring documents the photo
    title: str
    source: str | None  # verbatim from the docstring, which may not name one
    author: str  # as the docstring names the author, or why it names none
    kind: str  # the licence in two words, for the reader; `licence` is what counts
    licence: str  # verbatim from the docstring; checked against it on every run
    crop_anchor_y: float = 0.5  # where the 4:3 crop sits: 0 keeps the top, 1 the bottom


PHOTOS = [
    Photo(
        name="astronaut",
        file="astronaut.png",
        loader="astronaut",
        title="Color image of the astronaut Eileen Collins.",
        source="This image was downloaded from the NASA Great Images database "
        "<https://flic.kr/p/r9qvLn>`__.",
        author="not named by scikit-image; the photograph comes from NASA's Great Images database",
        kind="public domain",
        licence="No known copyright restrictions, released into the public domain.",
        # Her head is near the top of the square original; a centred crop would cut it.
        crop_anchor_y=0.2,
    ),
    Photo(
        name="chelsea",
        file="chelsea.png",
        loader="chelsea",
        title="Chelsea the cat.",
        source=None,
        author="Stefan van der Walt",
        kind="CC0",
        licence="No copyright restrictions.  CC0 by the photographer (Stefan van der Walt).",
    ),
    Photo(
        name="coffee",
        file="coffee.png",
        loader="coffee",
        title="Coffee cup.",
        source="This photograph is courtesy of Pikolo Espresso Bar.",
        author="Rachel Michetti",
        kind="CC0",
        licence="No copyright restrictions.  CC0 by the photographer (Rachel Michetti).",
    ),
    Photo(
        name="hubble",
        file="hubble_deep_field.jpg",
        loader="hubble_deep_field",
        title="Hubble eXtreme Deep Field.",
        source="This image was downloaded from `HubbleSite "
        "<http://hubblesite.org/newscenter/archive/releases/2012/37/image/a/>`__.",
        author="NASA",
        kind="public domain",
        licence="The image was captured by NASA and `may be freely used in the public domain "
        "<http://www.nasa.gov/audience/formedia/features/MP_Photo_Guidelines.html>`_.",
    ),
    Photo(
        name="retina",
        file="retina.jpg",
        loader="retina",
        title="Human retina.",
        source="This image was downloaded from `wikimedia "
        "<https://commons.wikimedia.org/wiki/File:Fundus_photograph_of_normal_left_eye.jpg>`.",
        author="Mikael Häggström (the docstring's reference [1])",
        kind="CC0 1.0",
        licence="This file is made available under the Creative Commons CC0 1.0 Universal "
        "Public Domain Dedication.",
    ),
    Photo(
        name="rocket",
        file="rocket.jpg",
        loader="rocket",
        title="Launch photo of DSCOVR on Falcon 9 by SpaceX.",
        source="This image was downloaded from `SpaceX Photos "
        "<https://www.flickr.com/photos/spacexphotos/16511594820/in/photostream/>`__.",
        author="SpaceX",
        kind="public domain",
        licence="The image was captured by SpaceX and `released in the public domain "
        "<http://arstechnica.com/tech-policy/2015/03/elon-musk-puts-spacex-photos-into-the-public-domain/>`_.",
    ),
]


class Source:
    """The skimage/data folder inside a scikit-image wheel."""

    def __init__(self, wheel: Path):
        match = re.match(r"scikit_image-([^-]+)-.*\.whl$", wheel.name)
        if match is None:
            sys.exit(f"{wheel} is not a scikit-image wheel (scikit_image-VERSION-....whl)")
        self.version = match.group(1)
        self.wheel = zipfile.ZipFile(wheel)

    def read(self, name: str) -> bytes:
        return self.wheel.read(f"skimage/data/{name}")


def normalise(text: str) -> str:
    return " ".join(text.split())


def docstrings(source: Source) -> dict:
    tree = ast.parse(source.read("_fetchers.py").decode("utf-8"))
    return {
        node.name: normalise(ast.get_docstring(node) or "")
        for node in tree.body
        if isinstance(node, ast.FunctionDef)
    }


def check_documentation(source: Source) -> None:
    documented = docstrings(source)
    problems = []
    for photo in PHOTOS:
        text = documented.get(photo.loader)
        if text is None:
            problems.append(f"{photo.name}: skimage.data has no function {photo.loader}()")
            continue
        for field in ("title", "source", "licence"):
            quote = getattr(photo, field)
            if quote is not None and normalise(quote) not in text:
                problems.append(f"{photo.name}: the {field} quoted here is not in {photo.loader}()'s docstring")
    if problems:
        sys.exit("stopping; the documentation no longer matches:\n  " + "\n  ".join(problems))


def crop_to_4_by_3(image: Image.Image, anchor_y: float) -> Image.Image:
    width, height = image.size
    if width * 3 > height * 4:
        crop_width = height * 4 // 3
        left = (width - crop_width) // 2
        return image.crop((left, 0, left + crop_width, height))
    crop_height = width * 3 // 4
    top = round((height - crop_height) * anchor_y)
    return image.crop((0, top, width, top + crop_height))


def ppm(photo: Photo, image: Image.Image, version: str) -> bytes:
    # The comment line says where the file came from to anyone who opens it, and it keeps the
    # Swift decoder's comment handling exercised by real files.
    header = f"P6\n# {photo.name}: scikit-image {version} sample '{photo.loader}', see assets/CREDITS.md\n"
    header += f"{image.width} {image.height}\n255\n"
    return header.encode("utf-8") + image.tobytes()


def credits(version: str) -> str:
    lines = [
        "# Credits",
        "",
        "The photos in `photos/` are scikit-image's sample photos, shrunk to 400×300 (cropped to 4:3, never",
        f"stretched or enlarged) by `tools/make-photos.py` from scikit-image {version}. The quoted text is that",
        "of each photo's `skimage.data` function's documentation, markup and all; only photos it documents as",
        "public domain or CC0 are shipped, and the script checks the quotes again every time it runs.",
        "",
    ]
    for photo in PHOTOS:
        source = f"``{photo.source}``" if photo.source else "not stated by scikit-image"
        lines += [
            f"## `{photo.name}.ppm`: {photo.title}",
            "",
            f"- From: `skimage.data.{photo.loader}()`, file `skimage/data/{photo.file}`",
            f"- Author: {photo.author}",
            f"- Source: {source}",
            f"- Licence: {photo.kind}: ``{photo.licence}``",
            "",
        ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", type=Path, help="a scikit-image wheel, as pip download saves it")
    source = Source(parser.parse_args().source)
    check_documentation(source)

    photos_folder = ASSETS / "photos"
    photos_folder.mkdir(exist_ok=True)
    for stale in photos_folder.glob("*.ppm"):
        stale.unlink()
    for photo in PHOTOS:
        image = Image.open(io.BytesIO(source.read(photo.file))).convert("RGB")
        cropped = crop_to_4_by_3(image, photo.crop_anchor_y)
        if cropped.width < WIDTH:
            sys.exit(f"{photo.file}: its 4:3 crop is {cropped.width}x{cropped.height}, smaller than {WIDTH}x{HEIGHT}")
        small = cropped.resize((WIDTH, HEIGHT), Image.Resampling.LANCZOS)
        target = photos_folder / f"{photo.name}.ppm"
        target.write_bytes(ppm(photo, small, source.version))
        print(f"{target.relative_to(ASSETS.parent)}: {small.width}x{small.height} from {photo.file} {image.size}")
    (ASSETS / "CREDITS.md").write_text(credits(source.version), encoding="utf-8")
    print(f"{(ASSETS / 'CREDITS.md').relative_to(ASSETS.parent)}: {len(PHOTOS)} photos")


if __name__ == "__main__":
    main()
