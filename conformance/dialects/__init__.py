"""Strict dialects as data (openai, anthropic, google, lenient, custom) and the rule validator."""
