"""The tool helper: define tools from type hints, pydantic models or raw JSON Schema, and invoke them."""
