"""One command line's overrides composed and checked with Hydra's compose API (no job runs).

Hydra's own messages for a bad override (an unknown key with advice to add it with ``+``, a value
of the wrong type, an unknown config name with 20 lines of search path) exit 1; these checks
find the same problems first and say them as ibench does: the field, what was expected, and
the nearest valid names (:class:`CommandLine`). :mod:`ibench.run.check` runs them on every job
of a command before Hydra runs one.
"""

from __future__ import annotations

from typing import Any

from omegaconf import DictConfig, OmegaConf

from ibench.run.preflight import did_you_mean

def _listing(options: list[str], limit: int = 14) -> str:
    shown = ", ".join(options[:limit])
    return shown + (f", … ({len(options)} in all)" if len(options) > limit else "")


_TYPE_WORDS = {"Integer": "a whole number", "Float": "a number", "Boolean": "true or false", "String": "text",
               "int": "a whole number", "float": "a number", "bool": "true or false", "str": "text"}


class CommandLine:
    """Compose and check the jobs of one command line with Hydra's compose API (no job runs)."""

    def __init__(self) -> None:
        from hydra.core.global_hydra import GlobalHydra

        from ibench.run import config as _config  # noqa: F401 - registers the schema

        self._ctx = None
        if not GlobalHydra.instance().is_initialized():
            from hydra import initialize_config_dir

            self._ctx = initialize_config_dir(config_dir=str(_config.CONF_DIR), version_base="1.3", job_name="ibench")
            self._ctx.__enter__()
        self.loader = GlobalHydra.instance().config_loader()
        self._groups: dict[str, list[str]] = {}
        self._bases: dict[tuple, DictConfig] = {}

    def close(self) -> None:
        if self._ctx is not None:
            self._ctx.__exit__(None, None, None)
            self._ctx = None

    def __enter__(self) -> "CommandLine":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # -- names --------------------------------------------------------------------------------
    def group_options(self, group: str) -> list[str] | None:
        """The options of a config group (``model``, ``hydra/launcher``), or None: not a group."""
        if group not in self._groups:
            parent, _, _ = group.rpartition("/")
            if group.split("/")[-1] not in self.loader.list_groups(parent):
                return None
            self._groups[group] = sorted(self.loader.get_group_options(group))
        return self._groups[group]

    def groups(self) -> list[str]:
        return sorted(g for g in self.loader.list_groups("") if g != "hydra")

    def compose(self, overrides: list[str]) -> DictConfig:
        from hydra import compose

        return compose("config", overrides=list(overrides))

    # -- one job --------------------------------------------------------------------------------
    def check_overrides(self, overrides: list[str]) -> tuple[DictConfig | None, list[str]]:
        """(the composed config, or None when it cannot be; one problem per bad override)."""
        import copy

        from hydra.core.override_parser.overrides_parser import OverridesParser
        from hydra.errors import HydraException

        parser = OverridesParser.create()
        problems: list[str] = []
        groups_ok: list[str] = []
        values: list[Any] = []
        for text in overrides:
            try:
                o = parser.parse_override(text)
            except HydraException as exc:
                problems.append(f"{text}: not a setting Hydra can read ({str(exc).splitlines()[0]}); "
                                "write key=value, and quote a value holding = , [ ] or spaces")
                continue
            key = o.key_or_group
            if o.is_sweep_override():
                problems.append(f"{text}: several values run a sweep, one run each: add -m (--multirun); "
                                f"a list value is written {key}=[a,b]")
                continue
            opts = self.group_options(key)
            if opts is not None and not o.is_delete():
                value = str(o.value())
                if value not in opts:
                    shown = [x for x in opts if not x.startswith("base_")]
                    where = "conf/" + key + "/" if not key.startswith("hydra/") else key
                    problems.append(f"{key}={value}: no such {key} config{did_you_mean(value, shown)} "
                                    f"(the {key} configs in {where}: {_listing(shown)})")
                else:
                    groups_ok.append(text)
                continue
            values.append(o)
        if problems and not groups_ok and not values:
            return None, problems
        chosen = tuple(g for g in groups_ok if not g.startswith("hydra"))
        if chosen not in self._bases:  # the jobs of a sweep share their group choices' composition
            try:
                self._bases[chosen] = self.compose(list(chosen))
            except HydraException as exc:
                return None, problems + [first_lines(exc)]
        cfg = copy.deepcopy(self._bases[chosen])
        for o in values:
            key = o.key_or_group
            if key.startswith("hydra.") or key == "hydra":
                continue
            if o.is_delete():
                continue
            try:
                value = o.value()
                if o.is_add() and config_node(cfg, key) is not None:
                    problems.append(f"{text}: {key} exists already; write {key}=... without the +")
                    continue
                if o.is_add() or o.is_force_add():
                    from omegaconf import open_dict

                    with open_dict(cfg):
                        OmegaConf.update(cfg, key, value, merge=True, force_add=o.is_force_add())
                else:
                    OmegaConf.update(cfg, key, value, merge=True)
            except Exception as exc:  # noqa: BLE001 - worded below
                problems.append(self._value_problem(cfg, o, exc))
        if problems:
            return None, problems
        hydra_keys = [t for t in overrides if t.startswith(("hydra.", "hydra/"))]
        if hydra_keys:  # Hydra's own settings: checked by composing them with Hydra's config
            from hydra import compose

            try:
                compose("config", overrides=list(chosen) + hydra_keys, return_hydra_config=True)
            except Exception as exc:  # noqa: BLE001 - worded as one line
                return None, [f"{' '.join(hydra_keys)}: {first_lines(exc)}"]
        if not any(o.is_delete() for o in values):
            return cfg, []  # what Hydra composes: the group choices, then each value merged in order
        try:  # deletions: Hydra's own composition
            return self.compose([t for t in overrides if not t.startswith(("hydra.", "hydra/"))]), []
        except HydraException as exc:
            return None, [first_lines(exc)]

    def _value_problem(self, cfg: DictConfig, o: Any, exc: Exception) -> str:
        from omegaconf.errors import ConfigAttributeError, ConfigKeyError

        key = o.key_or_group
        text = o.input_line or f"{key}={o.value()}"
        if isinstance(exc, (ConfigKeyError, ConfigAttributeError)):
            parent_key, _, leaf = key.rpartition(".")
            parent = OmegaConf.select(cfg, parent_key, throw_on_resolution_failure=False) if parent_key else cfg
            if OmegaConf.is_dict(parent):
                siblings = [str(k) for k in parent.keys()]
                where = parent_key or "the top level"
                hint = did_you_mean(leaf, siblings, prefix=f"{parent_key}." if parent_key else "")
                if hint:
                    return f"{key}: no such setting{hint}"
                return (f"{key}: no such setting; the settings of {where}: {_listing(siblings)} "
                        f"(`python -m ibench.launch print_config=true` prints them all)")
            flat = _flat_keys(cfg)
            return (f"{key}: no such setting{did_you_mean(key, flat) or ''} "
                    f"(`python -m ibench.launch print_config=true` prints them all)")
        node = config_node(cfg, key)
        expected = None
        if node is not None:
            ref = getattr(getattr(node, "_metadata", None), "ref_type", None)
            name = getattr(ref, "__name__", None) if ref is not None else None
            expected = _TYPE_WORDS.get(str(name)) if name else None
            if expected and getattr(node._metadata, "optional", False):
                expected += " or null"
            if expected is None and OmegaConf.is_list(node):
                expected = f"a list, e.g. {key}=[a,b]"
        if expected is None:
            import re

            m = re.search(r"could not be converted to (\w+)", str(exc))
            expected = _TYPE_WORDS.get(m.group(1), m.group(1)) if m else str(exc).splitlines()[0]
        return f"{key}: {o.value()!r}; expected {expected} ({text})"


def first_lines(exc: BaseException) -> str:
    lines = [ln.strip() for ln in str(exc).splitlines() if ln.strip()][:2]
    cause = exc.__cause__
    if cause is not None and str(cause).strip():
        lines.append(str(cause).strip().splitlines()[0])
    return "; ".join(lines) if lines else type(exc).__name__


def config_node(cfg: DictConfig, key: str) -> Any:
    node: Any = cfg
    for part in key.split("."):
        try:
            node = node._get_node(part)
        except Exception:  # noqa: BLE001
            return None
        if node is None:
            return None
    return node


def _flat_keys(cfg: Any, prefix: str = "", depth: int = 3) -> list[str]:
    out: list[str] = []
    if depth <= 0 or not OmegaConf.is_dict(cfg):
        return out
    for k in cfg.keys():
        full = f"{prefix}{k}"
        out.append(full)
        try:
            child = cfg._get_node(k)
        except Exception:  # noqa: BLE001
            continue
        if OmegaConf.is_dict(child):
            out += _flat_keys(child, full + ".", depth - 1)
    return out
