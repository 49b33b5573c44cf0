/// The pure model, update and rendering of the full-screen tutorial.
