"""``mlopt train FAMILY``: train a family's learned component (Harmony: the DRL policy or the
reward-prediction network) and write a checkpoint, with a progress bar."""
from __future__ import annotations

import json
import sys

from mlopt.cli import command, listing, parse_kv
from mlopt.cli.progress import progress_wanted
from mlopt.errors import InputError


@command("train", "train a family's learned component: mlopt train harmony -p episodes=300 "
         "-o policy.npz (then mlopt run harmony W --option policy=policy.npz)",
         epilog=listing.train)
def _args(p):
    p.add_argument("family")
    p.add_argument("--target", default=None, help="what to train (default: the family's first)")
    p.add_argument("-p", "--param", action="append", metavar="KEY=VALUE",
                   help="a training parameter (value parsed as JSON); repeatable")
    p.add_argument("-o", "--output", required=True, help="checkpoint file (.npz)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--no-progress", action="store_true")
    p.set_defaults(handler=run)


def run(args) -> int:
    from mlopt.families import get_family
    from mlopt.fileio import check_output

    fam = get_family(args.family)
    check_output(args.output)  # before the training, not after it
    if not fam.trainers:
        raise InputError("this family has nothing to train", field="family", value=fam.name)
    target = args.target or next(iter(fam.trainers))
    if target not in fam.trainers:
        raise InputError(f"unknown target (known: {', '.join(fam.trainers)})", field="target",
                         value=target)
    summary = fam.trainers[target](args.output, parse_kv(args.param),
                                   progress=not args.no_progress and progress_wanted())
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"wrote {args.output}: " + ", ".join(f"{k}={v}" for k, v in summary.items()
                                                   if not isinstance(v, (dict, list))),
              file=sys.stderr)
    return 0
