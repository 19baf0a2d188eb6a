"""What the cabinet senses and drives: clock, input events, buttons, slap pads, LED bars,
private displays.  Backends: gpio (gpiozero), sim (gpio on mock pins plus timed
injection), keyboard (development), padboard (serial slap pads).  Imports no game."""
