"""The tool helper's exceptions: definition errors, input errors, output errors."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["InputProblem", "ToolDefinitionError", "ToolInputError", "ToolOutputError"]


class ToolDefinitionError(ValueError):
    """A tool cannot be defined as given (bad schema, bad signature, bad name or strict value).

    Raised when the tool is defined, never later at call time.
    """


@dataclass(frozen=True)
class InputProblem:
    """One reason an input is invalid: the JSON pointer of the failing field and what is wrong."""

    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.field or '(root)'}: {self.message}"


class ToolInputError(ValueError):
    """A tool input failed validation; the callback was not called.

    ``problems`` lists every failing field (JSON pointers into the input); ``field`` is the
    first of them. A direct call raises this; the tool-use path turns it into an error result.
    """

    def __init__(self, tool_name: str, problems: tuple[InputProblem, ...]) -> None:
        if not problems:
            raise ValueError("ToolInputError needs at least one problem")
        self.tool_name = tool_name
        self.problems = problems
        shown = "; ".join(str(problem) for problem in problems[:10])
        more = f" (and {len(problems) - 10} more)" if len(problems) > 10 else ""
        super().__init__(f"invalid input for tool {tool_name!r}: {shown}{more}")

    @property
    def field(self) -> str:
        return self.problems[0].field


class ToolOutputError(TypeError):
    """A callback produced a final value that cannot travel back to a model as JSON."""
