"""Text for values that resist being printed (shared by the harness, the drift errors and the reference)."""

from __future__ import annotations

__all__ = ["int_text"]


def int_text(value: int) -> str:
    """``repr`` of an int, or a bounded description of one too long to print.

    ``repr(10**5000)`` raises ``ValueError`` (CPython's integer string conversion limit); a
    payload may hold such an int (JSON numbers have no size limit), and describing it must not.
    """
    digits = int(abs(value).bit_length() * 0.30103) + 1  # about log10(2) digits per bit
    if digits <= 40:
        try:
            return repr(int(value))
        except ValueError:  # a process limit set lower than 40 digits
            pass
    return f"<{'-' if value < 0 else ''}integer of about {digits} digits>"
