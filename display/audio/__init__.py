"""The cabinet's sound: a numpy synthesiser (synth), its instruments (kit), what a cue is
(cues), mixing and headroom (mixer), the device or tape it plays on (output) and the
cabinet's own scene cues (scenes).  Each game's design lives in its folder
(``display/games/<name>/sounds.py``); :mod:`display.sound` plays them."""
