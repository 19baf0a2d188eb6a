"""pygame rendering of the cabinet's scenes from plain screen models and game views, and
the private-display images; each game's screens are registered in ``display.games.registry``.
Depends on ``games`` for views only; knows no hardware."""
