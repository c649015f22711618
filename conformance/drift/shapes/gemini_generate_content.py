"""Gemini ``generateContent`` (``gemini.generate_content``), REST v1beta, camelCase JSON.

Proto3 JSON omits zero, empty and false values, so almost every field may be absent: that is
the default value, never drift (``index`` 0 and ``text`` "" disappear; ``parts`` is absent when
thinking used up ``maxOutputTokens``; ``candidates`` is absent when the prompt is blocked).
google-genai models every field as ``Optional``, so ``null`` is accepted where absence is.

``parts[]`` is a proto ``oneof``: the variant is the data key present (``text``,
``functionCall``...); a part with none of them is an unknown variant. A function call finishes
with ``STOP``: there is no tool-call finish reason. The stream
(``:streamGenerateContent?alt=sse``) sends whole response fragments and just closes.

With every field optional, renames (``candidates`` -> ``responseCandidates``, ``content`` ->
``body``, ``parts`` -> ``items``, ``functionCall`` -> ``function_call``) would leave only notices;
two DR-5 invariants catch them without crying wolf on the legitimately empty answers:

* a response without candidates is a blocked prompt, so it carries ``promptFeedback.blockReason``;
* a single candidate that finished with ``STOP`` while ``usageMetadata.candidatesTokenCount``
  counts output tokens has them in its parts: one with a known data key that is not a thought
  summary (thoughts are counted in ``thoughtsTokenCount``). Left alone: ``MAX_TOKENS``, ``SAFETY``
  and the other finish reasons (their content may be cleared or never produced), a ``STOP``
  without candidate tokens (gemini-2.5-flash-lite's empty answers after a tool result:
  BerriAI/litellm#24442, googleapis/python-genai#2667 show ``content: {role: model}``, no parts,
  no ``candidatesTokenCount``), and several candidates (the count is their sum).

A stream is judged whole, since chunks are partial: some event carries candidates (or a block
reason), and when every finish reason in it is ``STOP`` and some event counts candidate tokens,
some event carries such a part.
"""

from __future__ import annotations

from strictconformance.drift.shapes.model import (
    ANY,
    ARRAY,
    BOOL,
    INT,
    NUMBER,
    OBJECT,
    STRING,
    ApiShape,
    Arr,
    Invariant,
    Keyed,
    Obj,
    SplitRule,
    StreamShape,
    ValueShape,
    enum,
    info,
    opt,
    req,
)

__all__ = ["SHAPE"]

SDK = "response_shapes.md §4 (google-genai 3.4.0 types.py GenerateContentResponse)"
PART = "response_shapes.md §4 (google-genai 3.4.0 types.py Part)"
STREAM = "response_shapes.md §4 Stream (python-genai; FAN and CHL gemini streams)"

FINISH_REASONS = (
    "STOP",
    "MAX_TOKENS",
    "SAFETY",
    "RECITATION",
    "LANGUAGE",
    "OTHER",
    "BLOCKLIST",
    "PROHIBITED_CONTENT",
    "SPII",
    "MALFORMED_FUNCTION_CALL",
    "UNEXPECTED_TOOL_CALL",
    "TOO_MANY_TOOL_CALLS",
    "MISSING_THOUGHT_SIGNATURE",
    "MALFORMED_RESPONSE",
    "IMAGE_SAFETY",
    "IMAGE_PROHIBITED_CONTENT",
    "IMAGE_OTHER",
    "NO_IMAGE",
    "IMAGE_RECITATION",
    "ESCALATION",
    "PUP_LIMITED_DISABLED",
    "CONTINUATION",
    "MODEL_ARMOR",
    "FINISH_REASON_UNSPECIFIED",
)
BLOCK_REASONS = ("SAFETY", "OTHER", "BLOCKLIST", "PROHIBITED_CONTENT", "IMAGE_SAFETY", "MODEL_ARMOR", "JAILBREAK")


def _data(key: str, shape: ValueShape, source: str) -> Obj:
    """A part variant: the data key itself is required, a null there is drift."""
    return Obj((req(key, shape, source),))


FUNCTION_CALL = Obj(
    (
        req("name", STRING, PART, nonempty=True),
        opt("args", OBJECT, PART, note="{} for a function without parameters"),
        opt("id", STRING, "FAN TestGoogleThinking/gemini-3-pro-preview (populated by Gemini 3)"),
        opt("partialArgs", ARRAY, "python-genai 9b2ca50d (2025-11-17)"),
        opt("willContinue", BOOL, "python-genai 6258dad0 (2025-05-14)"),
    )
)

PART_UNION = Keyed(
    {
        "text": _data("text", STRING, PART),
        "functionCall": _data("functionCall", FUNCTION_CALL, PART),
        "functionResponse": _data(
            "functionResponse",
            Obj((req("name", STRING, PART, nonempty=True), opt("response", OBJECT, PART), opt("id", STRING, PART))),
            PART,
        ),
        "inlineData": _data("inlineData", Obj((opt("mimeType", STRING, PART), opt("data", STRING, PART))), PART),
        "fileData": _data("fileData", Obj((opt("mimeType", STRING, PART), opt("fileUri", STRING, PART))), PART),
        "executableCode": _data(
            "executableCode",
            Obj((opt("language", STRING, PART), req("code", STRING, PART), opt("id", STRING, "CHL test_google_code_execution (2026-07)"))),
            PART,
        ),
        "codeExecutionResult": _data(
            "codeExecutionResult",
            Obj((opt("outcome", STRING, PART), opt("output", STRING, PART), opt("id", STRING, "CHL test_google_code_execution (2026-07)"))),
            PART,
        ),
        "toolCall": _data("toolCall", OBJECT, PART),
        "toolResponse": _data("toolResponse", OBJECT, PART),
    },
    common=(
        opt("thought", BOOL, PART, note="true on thought summaries (text parts)"),
        opt("thoughtSignature", STRING, "python-genai 85e00bc1 (2025-05-04)"),
        info("videoMetadata", OBJECT, PART),
        info("partMetadata", OBJECT, PART),
        info("mediaResolution", ANY, PART),
    ),
)

_TOKEN_DETAILS = Arr(Obj((opt("modality", STRING, SDK), opt("tokenCount", INT, SDK))))

USAGE = Obj(
    (
        opt("promptTokenCount", INT, SDK),
        opt("candidatesTokenCount", INT, SDK, note="excludes thinking tokens since ~2025-04"),
        opt("thoughtsTokenCount", INT, "python-genai 122cdc86 (2025-03-20)"),
        opt("toolUsePromptTokenCount", INT, "python-genai 122cdc86 (2025-03-20)"),
        opt("cachedContentTokenCount", INT, SDK),
        opt("totalTokenCount", INT, SDK),
        opt("promptTokensDetails", _TOKEN_DETAILS, "python-genai 122cdc86 (2025-03-20)"),
        opt("candidatesTokensDetails", _TOKEN_DETAILS, "python-genai 122cdc86 (2025-03-20)"),
        opt("cacheTokensDetails", _TOKEN_DETAILS, "python-genai 122cdc86 (2025-03-20)"),
        opt("toolUsePromptTokensDetails", _TOKEN_DETAILS, "python-genai 122cdc86 (2025-03-20)"),
        info("trafficType", STRING, SDK),
    )
)

CANDIDATE = Obj(
    (
        opt(
            "content",
            Obj((opt("role", STRING, SDK), opt("parts", Arr(PART_UNION), SDK, note="absent when thinking used up maxOutputTokens"))),
            SDK,
        ),
        opt("finishReason", enum(*FINISH_REASONS), SDK, note="absent on non-final stream chunks"),
        opt("finishMessage", STRING, SDK),
        opt("index", INT, SDK, note="0 is omitted by proto3 JSON"),
        info("safetyRatings", ARRAY, SDK),
        info("citationMetadata", OBJECT, SDK),
        info("groundingMetadata", OBJECT, SDK),
        info("urlContextMetadata", OBJECT, SDK),
        info("avgLogprobs", NUMBER, SDK),
        info("logprobsResult", OBJECT, SDK),
        info("tokenCount", INT, SDK),
    )
)

RESPONSE = Obj(
    (
        opt("candidates", Arr(CANDIDATE), SDK, note="absent when the prompt is blocked"),
        opt(
            "promptFeedback",
            Obj(
                (
                    opt("blockReason", enum(*BLOCK_REASONS), SDK),
                    opt("blockReasonMessage", STRING, SDK),
                    info("safetyRatings", ARRAY, SDK),
                )
            ),
            SDK,
        ),
        opt("usageMetadata", USAGE, SDK),
        opt("modelVersion", STRING, SDK, note="may differ from the requested alias"),
        opt("responseId", STRING, "python-genai b46ed361 (2025-02-26)"),
        info("createTime", STRING, "python-genai b46ed361 (2025-02-26)"),
    )
)

INVARIANT = "response_shapes.md §4 (fields table and Invariants; History: candidatesTokenCount excludes thinking tokens since ~2025-04)"
#: The data keys of a part: its known variants.
PART_KEYS: tuple[str, ...] = tuple(PART_UNION.variants)

RESPONSE_INVARIANTS = (
    Invariant(
        id="gemini.generate_content.candidates_or_block_reason",
        description="a response without candidates is a blocked prompt: it carries promptFeedback.blockReason",
        source=f"{INVARIANT}: candidates[] is absent when the prompt is blocked, then promptFeedback.blockReason is set",
        requires="candidates[*]",
        unless="promptFeedback.blockReason",
    ),
    Invariant(
        id="gemini.generate_content.stop_carries_output",
        description=(
            "a single candidate that finished with STOP while usageMetadata counts candidate tokens has them in "
            "content.parts: a part with a known data key that is not a thought summary"
        ),
        source=f"{INVARIANT}: MAX_TOKENS may have no parts (and no candidatesTokenCount); a function call finishes with STOP",
        when="candidates[*].finishReason",
        equals="STOP",
        guards=(("usageMetadata.candidatesTokenCount", "positive"), ("candidates", "single")),
        requires="candidates[*].content.parts[*]",
        with_keys=PART_KEYS,
        excluding=(("thought", True),),
    ),
)

STREAM_INVARIANTS = (
    Invariant(
        id="gemini.generate_content.stream.candidates_or_block_reason",
        description="a stream with events carries candidates in some event, or promptFeedback.blockReason",
        source=f"{INVARIANT}; {STREAM}",
        when="events[*].data",
        requires="events[*].data.candidates[*]",
        unless="events[*].data.promptFeedback.blockReason",
    ),
    Invariant(
        id="gemini.generate_content.stream.stop_carries_output",
        description=(
            "a stream whose every finishReason is STOP and which counts candidate tokens carries, in some event, "
            "a part with a known data key that is not a thought summary"
        ),
        source=f"{INVARIANT}; {STREAM}",
        when="events[*].data.candidates[*].finishReason",
        equals="STOP",
        every=True,
        guards=(("events[*].data.usageMetadata.candidatesTokenCount", "positive"),),
        requires="events[*].data.candidates[*].content.parts[*]",
        with_keys=PART_KEYS,
        excluding=(("thought", True),),
    ),
)

SHAPE = ApiShape(
    api="gemini.generate_content",
    provider="gemini",
    title="Google Gemini generateContent (REST v1beta)",
    endpoint="POST https://generativelanguage.googleapis.com/v1beta/models/{model}:generateContent",
    response=RESPONSE,
    stream=StreamShape(
        event=RESPONSE,
        source=STREAM,
        framing="data",
        invariants=STREAM_INVARIANTS,
        splits=(
            SplitRule(
                text="candidates[0].content.parts[0].text",
                head_clears=("candidates[0].finishReason", "candidates[0].finishMessage"),
                clear_with_null=False,
                same_item=("responseId",),
            ),
        ),
    ),
    sources=(
        "response_shapes.md §4",
        "https://ai.google.dev/api/generate-content#generatecontentresponse",
        "python-genai 3.4.0 google/genai/types.py",
    ),
    invariants=RESPONSE_INVARIANTS,
    notes=("Nullable everywhere absence is allowed: google-genai validates with pydantic and every field is Optional. "
           "No usage-total relation: the API reference describes totalTokenCount as prompt + candidates, while real "
           "bodies since 2025 also count thoughts and tool-use prompt tokens (response_shapes.md §4 and §8 #8), so no "
           "documented formula holds; and no unique-id relation, since functionCall.id is absent before Gemini 3."),
)
