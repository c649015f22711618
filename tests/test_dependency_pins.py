"""hypothesis-jsonschema 0.23.1 (its latest) breaks on hypothesis >= 6.170.10 with
"'many' object has no attribute 'more'". pyproject pins hypothesis below that; this test fails
loudly if the installed pair stops working together (a pin loosened, or a new release of either)."""

from __future__ import annotations

from importlib.metadata import version

import jsonschema
from hypothesis import HealthCheck, given, settings
from hypothesis_jsonschema import from_schema

# Arrays inside objects are what hit the broken code path.
SCHEMA = {"type": "object", "properties": {"a": {"type": "array", "items": {"type": "integer"}, "minItems": 1},
                                           "b": {"type": "array", "items": {"type": "object"}}}, "required": ["a"]}


def test_hypothesis_jsonschema_works_with_the_installed_hypothesis() -> None:
    @settings(max_examples=25, database=None, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(from_schema(SCHEMA))
    def generate(value: object) -> None:
        jsonschema.validate(value, SCHEMA)

    try:
        generate()
    except AttributeError as error:  # pragma: no cover - the regression this guards against
        raise AssertionError(
            f"hypothesis {version('hypothesis')} and hypothesis-jsonschema {version('hypothesis-jsonschema')} "
            f"no longer work together ({error}); keep hypothesis pinned below 6.170.10 in pyproject.toml"
        ) from error
