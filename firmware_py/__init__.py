"""firmware_py package."""
