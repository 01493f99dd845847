"""`dusk show --resolved`: the merged ruleset as YAML, each value marked with the file and line it came from."""

from __future__ import annotations

import json

from .yamlio import LDict, LList


def _scalar(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return json.dumps(value, ensure_ascii=False)   # a JSON string is a valid YAML scalar


def _origin(pos, files_seen: set) -> str:
    if pos is None:
        return ""
    files_seen.add(pos.file)
    return f"  # {pos.file}:{pos.line}"


def show_resolved(data: LDict, files: list[str]) -> str:
    lines = [f"# {files[0]} resolved" + (f" over {', '.join(files[1:])}" if len(files) > 1 else "")]
    seen: set = set()
    _emit(data, 0, lines, seen)
    return "\n".join(lines) + "\n"


def _emit(node, indent: int, lines: list, seen: set) -> None:
    pad = "  " * indent
    if isinstance(node, dict):
        for key, value in node.items():
            pos = node.value_pos.get(key) if isinstance(node, LDict) else None
            label = _scalar(key) if not isinstance(key, str) or not key.replace("_", "a").isalnum() else key
            if isinstance(value, (dict, list)) and value:
                lines.append(f"{pad}{label}:{_origin(pos, seen)}")
                _emit(value, indent + 1, lines, seen)
            else:
                lines.append(f"{pad}{label}: {_flow(value)}{_origin(pos, seen)}")
    elif isinstance(node, list):
        for i, item in enumerate(node):
            pos = node.item_pos[i] if isinstance(node, LList) and i < len(node.item_pos) else None
            if isinstance(item, (dict, list)) and item:
                lines.append(f"{pad}-{_origin(pos, seen)}")
                _emit(item, indent + 1, lines, seen)
            else:
                lines.append(f"{pad}- {_flow(item)}{_origin(pos, seen)}")


def _flow(value) -> str:
    if isinstance(value, dict):
        return "{}" if not value else "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    return _scalar(value)
