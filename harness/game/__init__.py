"""The game driver: plays the BASIC КРИБЕДЖ on the embedded Spectrum and checks it against the rules engine."""
