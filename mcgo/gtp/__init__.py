"""GTP: the engine side (later) and a controller for talking to other engines."""
