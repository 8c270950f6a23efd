"""``mlopt schema workload|schedule|spec``: the JSON Schema of a file format, so other tools can
validate mlopt's files (the models live in :mod:`mlopt.formats`)."""
from __future__ import annotations

import json

from mlopt.cli import command, listing


@command("schema", "print the JSON Schema of a file format: mlopt schema workload|schedule|spec",
         epilog=listing.schema)
def _schema_args(p):
    p.add_argument("format", help="a file format (listed below)")
    p.add_argument("-o", "--output", help="write the schema here instead of stdout")
    p.set_defaults(handler=_schema)


def _schema(args) -> int:
    from mlopt.formats import json_schema

    text = json.dumps(json_schema(args.format), indent=1, sort_keys=True) + "\n"
    if args.output:
        from mlopt.fileio import write_text

        write_text(args.output, text)
    else:
        print(text, end="")
    return 0
