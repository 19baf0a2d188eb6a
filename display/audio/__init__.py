"""The cabinet's sound: a numpy synthesiser (synth), its instruments (kit), what a cue is
(cues), mixing and headroom (mixer), the device or tape it plays on (output), the
cabinet's own scene cues (scenes), the boxing games' shared ring cues (ring) and the
``make sounds`` review sheet (sheet).  Each game's design lives in its folder
(``display/games/<name>/sounds.py``); :mod:`display.sound` plays them."""
