"""The cabinet at run time: the main loop, the scenes, a game's session, the store and
the settle window; the controls protocol every game's controls implement."""
