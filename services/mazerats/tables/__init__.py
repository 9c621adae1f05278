"""The Maze Rats tables as Python data, transcribed from the rules text."""
