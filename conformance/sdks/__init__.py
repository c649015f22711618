"""Adapters for real SDKs, shipped with the kit: ``strictconformance.sdks.<name>``.

Each module calls only its SDK's own code and says in its docstring what maps to which capability
and what does not (not covered, never faked). Importing a module needs its SDK installed
(``pip install ".[sdks]"`` in a checkout installs the tested versions); this package itself imports
no SDK.

:data:`SDK_PATHS` lists every SDK path the kit ships an adapter or a process harness for: the columns
of the SDK matrix (``python -m strictconformance.matrix``). One SDK with several paths (a validating and
a non-validating client, two schema transformers) has one entry per path.
"""

from __future__ import annotations

import importlib.metadata
import re
from dataclasses import dataclass

__all__ = ["SDK_PATHS", "SdkPath", "distribution_versions", "environment_pins", "missing_distributions"]


@dataclass(frozen=True)
class SdkPath:
    """One column of the SDK matrix: an SDK path and how the suite reaches it."""

    #: Column id, ``<sdk>/<path>`` (e.g. ``"anthropic/transform_schema"``): stable, used in reports.
    key: str
    #: What a reader sees as the column heading.
    title: str
    #: The distributions (PyPI or npm packages) the path exercises; their installed versions are
    #: recorded in the matrix, and a missing one makes the path unavailable.
    distributions: tuple[str, ...]
    #: ``module:attribute`` for ``--sc-adapter`` (Python adapters).
    adapter: str | None = None
    #: Process harness (``--sc-adapter-cmd``), for SDKs in other languages: the command line, run
    #: from the kit's harness folder.
    command: str | None = None
    #: ``"python"`` or ``"node"``: the language of the path's reproducers.
    language: str = "python"
    #: For a Python adapter whose SDK cannot be installed beside the others (its pins conflict with
    #: the ``sdks`` extra's): the pip requirements of an environment of its own, each distribution of
    #: the path pinned with ``==`` (``("instructor==1.17.0", "pydantic==2.14.4")``). The matrix builds
    #: that environment under its ``--out`` folder (the kit from the source it was installed from,
    #: these requirements and the matrix's Hypothesis version), reuses it while they are the same, and
    #: runs the column with its Python. Empty: the column runs in the matrix's own environment.
    environment: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if (self.adapter is None) == (self.command is None):
            raise ValueError(f"SDK path {self.key!r}: give exactly one of adapter= and command=")
        if self.language not in ("python", "node"):
            raise ValueError(f"SDK path {self.key!r}: language must be 'python' or 'node', not {self.language!r}")
        if self.environment:
            if self.adapter is None:
                raise ValueError(f"SDK path {self.key!r}: environment= is for Python adapters (adapter=), "
                                 f"not process harnesses")
            pins = environment_pins(self.environment, f"SDK path {self.key!r}")
            unpinned = [name for name in self.distributions if _canonical(name) not in pins]
            if unpinned:
                raise ValueError(f"SDK path {self.key!r}: environment= pins no version of {', '.join(unpinned)} "
                                 f"(write {unpinned[0]}==VERSION): the column's versions are its environment's")


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def environment_pins(requirements: tuple[str, ...], where: str) -> dict[str, str]:
    """``{canonical name: version}`` of the requirements pinned with ``==`` (others are installed as
    pip resolves them). Raises ``ValueError`` naming a requirement that is not one."""
    from packaging.requirements import InvalidRequirement, Requirement

    pins: dict[str, str] = {}
    for text in requirements:
        if not isinstance(text, str):
            raise ValueError(f"{where}: environment= holds {text!r}, not a requirement string")
        try:
            requirement = Requirement(text)
        except InvalidRequirement as error:
            raise ValueError(f"{where}: environment= requirement {text!r} is not a pip requirement: {error}") from None
        exact = [spec.version for spec in requirement.specifier if spec.operator == "=="]
        if len(exact) == 1 and "*" not in exact[0]:
            pins[_canonical(requirement.name)] = exact[0]
    return pins


#: What the pydantic-ai module imports: the slim package with its openai, anthropic and google extras.
_PYDANTIC_AI = ("pydantic-ai-slim", "openai", "anthropic", "google-genai")

#: instructor's own environment: it and the openai-python it resolves to, with the pydantic the matrix pins.
_INSTRUCTOR_ENVIRONMENT = ("instructor==1.17.0", "openai==3.3.0", "pydantic==2.14.4")

#: Every shipped SDK path, in matrix column order. Python adapters first, then process harnesses.
SDK_PATHS: tuple[SdkPath, ...] = (
    # openai-python (strictconformance.sdks.openai_python), openai-agents (.openai_agents), anthropic (.anthropic)
    SdkPath("openai-python/client", "openai-python", ("openai",),
            adapter="strictconformance.sdks.openai_python:OpenAIPython"),
    SdkPath("openai-python/client-validating", "openai-python (_strict_response_validation)", ("openai",),
            adapter="strictconformance.sdks.openai_python:OpenAIPythonValidating"),
    SdkPath("openai-agents/ensure_strict_json_schema", "openai-agents ensure_strict_json_schema", ("openai-agents",),
            adapter="strictconformance.sdks.openai_agents:OpenAIAgentsStrictSchema"),
    SdkPath("openai-agents/function_tool", "openai-agents function_tool", ("openai-agents",),
            adapter="strictconformance.sdks.openai_agents:OpenAIAgentsFunctionTool"),
    SdkPath("anthropic/transform_schema", "anthropic transform_schema", ("anthropic",),
            adapter="strictconformance.sdks.anthropic:AnthropicTransformSchema"),
    SdkPath("anthropic/tools", "anthropic beta_tool + tool_runner", ("anthropic",),
            adapter="strictconformance.sdks.anthropic:AnthropicTools"),
    SdkPath("anthropic/client", "anthropic client", ("anthropic",),
            adapter="strictconformance.sdks.anthropic:AnthropicClient"),
    SdkPath("anthropic/client-validating", "anthropic client (_strict_response_validation)", ("anthropic",),
            adapter="strictconformance.sdks.anthropic:AnthropicClientValidating"),
    # pydantic-ai (strictconformance.sdks.pydantic_ai)
    SdkPath("pydantic-ai/openai-transformer", "pydantic-ai: OpenAI schema transformer", ("pydantic-ai-slim",),
            adapter="strictconformance.sdks.pydantic_ai:PydanticAIOpenAITransformer"),
    SdkPath("pydantic-ai/anthropic-transformer", "pydantic-ai: Anthropic schema transformer", _PYDANTIC_AI,
            adapter="strictconformance.sdks.pydantic_ai:PydanticAIAnthropicTransformer"),
    SdkPath("pydantic-ai/google-transformer", "pydantic-ai: Google schema transformer", ("pydantic-ai-slim",),
            adapter="strictconformance.sdks.pydantic_ai:PydanticAIGoogleTransformer"),
    SdkPath("pydantic-ai/tools", "pydantic-ai: tools", ("pydantic-ai-slim",),
            adapter="strictconformance.sdks.pydantic_ai:PydanticAITools"),
    SdkPath("pydantic-ai/responses", "pydantic-ai: response processing", _PYDANTIC_AI,
            adapter="strictconformance.sdks.pydantic_ai:PydanticAIResponses"),
    SdkPath("pydantic-ai/requests", "pydantic-ai: requests (OpenAI Responses)", _PYDANTIC_AI,
            adapter="strictconformance.sdks.pydantic_ai:PydanticAIRequests"),
    SdkPath("pydantic-ai/requests-chat", "pydantic-ai: requests (OpenAI Chat)", _PYDANTIC_AI,
            adapter="strictconformance.sdks.pydantic_ai:PydanticAIChatRequests"),
    # langchain-core (strictconformance.sdks.langchain_core)
    SdkPath("langchain-core/convert_to_openai_tool", "langchain-core: convert_to_openai_tool(strict=True)", ("langchain-core",),
            adapter="strictconformance.sdks.langchain_core:LangchainConvertToOpenAITool"),
    SdkPath("langchain-core/tools", "langchain-core: @tool / StructuredTool", ("langchain-core",),
            adapter="strictconformance.sdks.langchain_core:LangchainTools"),
    # google-genai (strictconformance.sdks.google_genai); its JSON-schema mode passes schemas through
    # untouched (no strictify to judge): the kit's "google-schema" dialect judges the Schema mode.
    SdkPath("google-genai/schema", "google-genai: Schema (OpenAPI subset)", ("google-genai",),
            adapter="strictconformance.sdks.google_genai:GoogleGenaiSchema"),
    SdkPath("google-genai/schema-from-json-schema", "google-genai: Schema.from_json_schema", ("google-genai",),
            adapter="strictconformance.sdks.google_genai:GoogleGenaiSchemaFromJsonSchema"),
    SdkPath("google-genai/response-schema", "google-genai: generate_content response_schema (t_schema)", ("google-genai",),
            adapter="strictconformance.sdks.google_genai:GoogleGenaiResponseSchema"),
    SdkPath("google-genai/responses", "google-genai: responses", ("google-genai",),
            adapter="strictconformance.sdks.google_genai:GoogleGenaiResponses"),
    SdkPath("google-genai/function-declarations", "google-genai: FunctionDeclaration.from_callable", ("google-genai",),
            adapter="strictconformance.sdks.google_genai:GoogleGenaiFunctionDeclarations"),
    # mistralai (strictconformance.sdks.mistral)
    SdkPath("mistralai/response-format", "mistralai: response_format_from_pydantic_model (strict)", ("mistralai",),
            adapter="strictconformance.sdks.mistral:MistralStrictSchema"),
    # dspy (strictconformance.sdks.dspy)
    SdkPath("dspy/lm-response-format", "dspy: LM response_format (_strict_json_schema)", ("dspy",),
            adapter="strictconformance.sdks.dspy:DspyLMResponseFormat"),
    SdkPath("dspy/json-adapter", "dspy: JSONAdapter structured outputs", ("dspy",),
            adapter="strictconformance.sdks.dspy:DspyJSONAdapter"),
    # llama-index-core (strictconformance.sdks.llama_index_core)
    SdkPath("llama-index-core/function-tool", "llama-index-core: FunctionTool + call_tool_with_selection", ("llama-index-core",),
            adapter="strictconformance.sdks.llama_index_core:LlamaIndexFunctionTool"),
    # litellm (strictconformance.sdks.litellm): the provider translations a caller's schema goes through
    SdkPath("litellm/gemini-tools", "litellm: Gemini tools (build_vertex_schema)", ("litellm",),
            adapter="strictconformance.sdks.litellm:LitellmGeminiTools"),
    SdkPath("litellm/gemini-response-schema", "litellm: Gemini 1.5 response_format (responseSchema)", ("litellm",),
            adapter="strictconformance.sdks.litellm:LitellmGeminiResponseSchema"),
    SdkPath("litellm/anthropic-output-format", "litellm: Anthropic response_format (output_format)", ("litellm",),
            adapter="strictconformance.sdks.litellm:LitellmAnthropicOutputFormat"),
    # instructor (strictconformance.sdks.instructor): its pins (jiter<0.15) conflict with openai 3.57.0's
    # (jiter>=0.16), so its columns run in an environment of their own
    SdkPath("instructor/openrouter-json-schema", "instructor: OpenRouter Mode.JSON_SCHEMA (strict response_format)",
            ("instructor", "openai"), adapter="strictconformance.sdks.instructor:InstructorOpenRouterJsonSchema",
            environment=_INSTRUCTOR_ENVIRONMENT),
    SdkPath("instructor/responses-tools", "instructor: OpenAI Mode.RESPONSES_TOOLS (strict text.format)",
            ("instructor", "openai"), adapter="strictconformance.sdks.instructor:InstructorResponsesTools",
            environment=_INSTRUCTOR_ENVIRONMENT),
    # process harnesses (strictconformance.process; run from HARNESS_DIR)
    SdkPath("vercel-ai/node", "Vercel AI SDK (TypeScript)", ("ai", "@ai-sdk/openai", "@ai-sdk/anthropic", "@ai-sdk/google"),
            command="node harnesses/vercel-ai.mjs", language="node"),
    # the same harness, its tool layer only, with tools defined from a Zod schema (z.fromJSONSchema)
    SdkPath("vercel-ai/node-zod", "Vercel AI SDK (TypeScript) tool() with Zod schemas", ("ai", "zod"),
            command="node harnesses/vercel-ai.mjs --zod", language="node"),
    SdkPath("effect-ai/node", "Effect AI (TypeScript)", ("effect", "@effect/ai-openai", "@effect/ai-anthropic"),
            command="node harnesses/effect-ai.mjs", language="node"),
    SdkPath("strands-agents/node", "Strands Agents (TypeScript) tool()", ("@strands-agents/sdk",),
            command="node harnesses/strands.mjs", language="node"),
    SdkPath("openai-node/to-strict-json-schema", "OpenAI Node SDK (TypeScript): toStrictJsonSchema", ("openai",),
            command="node harnesses/openai-node.mjs", language="node"),
    SdkPath("openai-node/zod", "OpenAI Node SDK (TypeScript): zodResponseFormat and its parser", ("openai", "zod"),
            command="node harnesses/openai-node.mjs --zod", language="node"),
    SdkPath("openai-agents-js/strict-tool-schema", "OpenAI Agents SDK (TypeScript): tool() strict schema conversion",
            ("@openai/agents",), command="node harnesses/openai-agents-js.mjs --strict-schema", language="node"),
    SdkPath("openai-agents-js/tool", "OpenAI Agents SDK (TypeScript): tool() and its invocation", ("@openai/agents",),
            command="node harnesses/openai-agents-js.mjs", language="node"),
    SdkPath("anthropic-ts/json-schema-output-format", "@anthropic-ai/sdk (TypeScript) jsonSchemaOutputFormat", ("@anthropic-ai/sdk",),
            command="node harnesses/anthropic-sdk.mjs", language="node"),
    SdkPath("anthropic-ts/beta-tool", "@anthropic-ai/sdk (TypeScript) betaTool + toolRunner", ("@anthropic-ai/sdk",),
            command="node harnesses/anthropic-sdk.mjs --tools", language="node"),
    SdkPath("langchain-core-ts/convert-to-openai-tool", "@langchain/core (TypeScript) convertToOpenAITool(strict: true)",
            ("@langchain/core",), command="node harnesses/langchain-core.mjs", language="node"),
    SdkPath("google-genai-ts/response-schema", "@google/genai (TypeScript) generateContent responseSchema (processJsonSchema)",
            ("@google/genai",), command="node harnesses/google-genai.mjs", language="node"),
)


def distribution_versions(path: SdkPath) -> dict[str, str | None]:
    """Installed version of each Python distribution of ``path`` (``None``: not installed). Node
    packages are versioned by their harness, not here. A path with an environment of its own
    (``environment=``) gives the versions that environment pins: it does not use this one's."""
    if path.language != "python":
        return {}
    if path.environment:
        pins = environment_pins(path.environment, f"SDK path {path.key!r}")
        return {name: pins.get(_canonical(name)) for name in path.distributions}
    versions: dict[str, str | None] = {}
    for name in path.distributions:
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            versions[name] = None
    return versions


def missing_distributions(path: SdkPath) -> list[str]:
    """The Python distributions of ``path`` that are not installed (empty: the path can run)."""
    return [name for name, version in distribution_versions(path).items() if version is None]
