"""App settings: default metric options and metric selection, read from ``--config FILE``.

The file is JSON or TOML. Option names are the metric registry's (the same as the CLI flags
without ``--`` and with ``_``); they may sit at the top level or under ``options``. A
``metrics`` list sets the metrics ticked when the page opens. Anything unknown is an error,
so a typo never silently runs with defaults.

    # radscope.toml
    metrics = ["bleu", "rouge", "clear"]
    prepare = ["crepe-biomedbert"]   # fetched before the app serves (see models/prepare.py)
    [options]
    judge = "qwen2.5-7b-instruct"

``public`` is not read from the file: ``app.py`` sets it (see ``radscope.ui.public``). In public mode a
request may set only the options a visitor may set; everything else comes from this file.
Secret options (an API key) never reach the page: the app adds them on the server.
"""
from __future__ import annotations

import json
import stat
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from radscope.engine.io.reports import DEFAULT_MAX_CHARS
from radscope.engine.metrics.framework.defaults import default_metrics
from radscope.engine.metrics.framework.registry import MetricRegistry
from radscope.models.prepare import parse_ids
from radscope.ui.public import is_secret, refuse_operator_options
from radscope.ui.runtime import coerce_option

APP_KEYS = ("metrics", "options", "max_pairs", "max_chars", "max_contexts", "prepare")
RULES = "rules"
MAX_CONFIG_BYTES = 1_000_000
NO_KEY = "no-key"  # sent instead of the operator's key to a server the operator did not name


class ConfigError(ValueError):
    """The config file cannot be used; the message names the file and the problem."""


@dataclass
class AppConfig:
    registry: MetricRegistry          # the metrics the app offers (app.py: the project's)
    options: dict[str, Any] = field(default_factory=dict)
    metrics: list[str] | None = None  # None: every metric that gives real numbers offline
    max_pairs: int = 5000             # pairs per uploaded batch
    max_chars: int = DEFAULT_MAX_CHARS
    max_contexts: int = 2             # settings combinations kept loaded
    prepare: list[str] = field(default_factory=list)  # registry ids fetched before serving
    public: bool = False              # see ui.public (set by app.py, never by the file)
    warm: bool = False                # load the default metrics at start (set by app.py)

    def effective_options(self) -> dict[str, Any]:
        """The configured options, plus one app default: an option that offers a "rules"
        choice (the extractor) starts on it, so that a first click on Run answers in a second
        instead of waiting for the LLM judge. The Metric options accordion shows it."""
        options = dict(self.options)
        for name, opt in self.registry.all_options().items():
            if name not in options and opt.choices and RULES in opt.choices and opt.default != RULES:
                options[name] = RULES
        return options

    def needs_llm(self, name: str) -> bool:
        """Whether metric ``name`` calls the LLM judge under these options."""
        spec = self.registry.get(name)
        if spec.kind != "llm":
            return False
        options = self.effective_options()
        return not any(opt.choices and RULES in opt.choices
                       and options.get(opt.name, opt.default) == RULES for opt in spec.options)

    def default_metrics(self) -> list[str]:
        """The metrics ticked when the page opens: the configured ones, else those that give
        real numbers under these options and run without the LLM judge (which takes seconds
        a call). Demo-grade metrics (the bundled CREPE and SRR models, the demo judge) are
        never ticked by default: their numbers are not measurements."""
        if self.metrics is not None:
            return [m for m in self.metrics if m in self.registry]
        options = self.effective_options()
        return [n for n in default_metrics(self.registry, options) if not self.needs_llm(n)]

    def option_value(self, name: str) -> Any:
        """The value a control starts with; a secret starts blank (the page is public to
        whoever loads it, and the server adds the configured secret itself)."""
        if is_secret(name):
            return ""
        options = self.effective_options()
        if name in options:
            return options[name]
        return self.registry.all_options()[name].default

    def request_options(self, given: dict[str, Any] | None) -> dict[str, Any]:
        """The options one request runs with: the configured ones, overridden by what the
        request set (blank values ignored). Public mode refuses operator-only options
        (OperatorSetting). The operator's API key (or $OPENAI_API_KEY) goes only to the server
        the operator configured: a request naming another server without its own key gets
        none."""
        given = {k: v for k, v in (given or {}).items()
                 if v is not None and not (isinstance(v, str) and not v.strip())}
        if self.public:
            refuse_operator_options(self.registry, given)
        configured = self.effective_options()
        merged = {**configured, **given}
        url = str(given.get("judge_url") or "").strip()
        if url and url != str(configured.get("judge_url") or "").strip() \
                and not given.get("judge_api_key") and "judge_api_key" in self.registry.all_options():
            merged["judge_api_key"] = NO_KEY
        return merged


def load_config(path: str | Path | None, registry: MetricRegistry) -> AppConfig:
    """The settings of the file at ``path`` (defaults when None), checked against ``registry``."""
    if path is None:
        return AppConfig(registry)
    path = Path(path)
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):
            raise ConfigError(f"{path}: not a regular file")
        if info.st_size > MAX_CONFIG_BYTES:
            raise ConfigError(f"{path}: {info.st_size:,} bytes; a config file holds at most "
                              f"{MAX_CONFIG_BYTES:,}")
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the config file ({exc.strerror or exc})") from None
    try:
        data = tomllib.loads(text) if path.suffix.lower() == ".toml" else json.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
        raise ConfigError(f"{path}: not valid {'TOML' if path.suffix.lower() == '.toml' else 'JSON'}"
                          f" ({exc})") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected an object / table at the top level")
    return config_from_dict(data, registry, str(path))


def config_from_dict(data: dict[str, Any], registry: MetricRegistry, source: str = "config") -> AppConfig:
    config = AppConfig(registry, options=_options(data, registry, source),
                       metrics=_metrics(data.get("metrics"), registry, source))
    try:
        config.prepare = parse_ids(data.get("prepare"))
    except ValueError as exc:
        raise ConfigError(f"{source}: {exc}") from None
    for key in ("max_pairs", "max_chars", "max_contexts"):
        if key in data:
            value = data[key]
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ConfigError(f"{source}: {key} must be a positive integer, got {value!r}")
            setattr(config, key, value)
    return config


def _options(data: dict[str, Any], registry: MetricRegistry, source: str) -> dict[str, Any]:
    """The metric options, from the ``options`` table and from top-level keys, each checked
    and coerced to its declared type; any other key is an error naming the known ones."""
    known = registry.all_options()
    raw_options = dict(data.get("options") or {})
    for key, value in data.items():
        if key in APP_KEYS:
            continue
        if key not in known:
            raise ConfigError(f"{source}: unknown setting {key!r}; metric options are: "
                              f"{', '.join(known) or '(none registered)'}; app settings are: "
                              f"{', '.join(APP_KEYS)}")
        raw_options[key] = value
    options = {}
    for name, value in raw_options.items():
        if name not in known:
            raise ConfigError(f"{source}: unknown metric option {name!r}; known: "
                              f"{', '.join(known) or '(none registered)'}")
        try:
            options[name] = coerce_option(known[name], value)
        except ValueError as exc:
            raise ConfigError(f"{source}: {exc}") from None
    return options


def _metrics(metrics: Any, registry: MetricRegistry, source: str) -> list[str] | None:
    """The metrics to offer (a list, or a comma-separated string), all registered; None: the
    defaults."""
    if metrics is None:
        return None
    if isinstance(metrics, str):
        metrics = [m.strip() for m in metrics.split(",") if m.strip()]
    unknown = [m for m in metrics if m not in registry]
    if unknown:
        raise ConfigError(f"{source}: unknown metric(s) {', '.join(unknown)}; registered: "
                          f"{', '.join(registry.names())}")
    return list(metrics)
