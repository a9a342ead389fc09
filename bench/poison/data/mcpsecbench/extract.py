"""Writes tools.json: the tools MCPSecBench's example servers declare, as FastMCP lists them.

Usage: python3 extract.py <checkout of AIS2Lab/MCPSecBench> > tools.json

Each `@mcp.tool()` function of the server scripts in code/ becomes one tool: its name, its
docstring as FastMCP sends it (the MCP Python SDK's Tool.from_function takes `fn.__doc__` as
it is: indentation kept, as Python before 3.13 compiles it), and an inputSchema
from its parameters (annotation -> JSON type; a parameter without a default is required).
Reads the Python with the ast module; runs none of it.
"""
import ast
import json
import sys
from pathlib import Path

SERVERS = ["maliciousadd.py", "squatting.py", "addserver.py", "download.py", "sse.py"]
TYPES = {"int": "integer", "float": "number", "str": "string", "bool": "boolean", "list": "array", "dict": "object"}


def is_tool(fn):
    for d in fn.decorator_list:
        call = d.func if isinstance(d, ast.Call) else d
        if isinstance(call, ast.Attribute) and call.attr == "tool":
            return True
    return False


def schema(fn):
    args = fn.args.args
    defaults = [None] * (len(args) - len(fn.args.defaults)) + list(fn.args.defaults)
    props, required = {}, []
    for a, d in zip(args, defaults):
        p = {"title": a.arg.replace("_", " ").title()}
        if a.annotation is not None and isinstance(a.annotation, ast.Name) and a.annotation.id in TYPES:
            p["type"] = TYPES[a.annotation.id]
        props[a.arg] = p
        if d is None:
            required.append(a.arg)
    out = {"type": "object", "properties": props}
    if required:
        out["required"] = required
    return out


def main(root):
    out = []
    for name in SERVERS:
        tree = ast.parse((Path(root) / "code" / name).read_text(encoding="utf-8"))
        for fn in tree.body:
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and is_tool(fn):
                tool = {"name": fn.name, "inputSchema": schema(fn)}
                doc = ast.get_docstring(fn, clean=False)
                if doc is not None:
                    tool["description"] = doc
                out.append({"id": f"mcpsecbench-{name[:-3]}-{fn.name}", "server": f"code/{name}", "tool": tool})
    json.dump({"tools": out}, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


main(sys.argv[1])
