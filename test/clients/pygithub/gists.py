# PyGithub against hublet's gists: create, edit, history, fork, star, comments, and a list's second page.
# Prints one JSON object; test/clients/pygithub.test.ts asserts on it. Run with Debian's /usr/bin/python3 (python3-github).
import json
import os

import github
from github import InputFileContent

api = os.environ["HUBLET_API"]
owner = github.Github(base_url=api, login_or_token=os.environ["OWNER_TOKEN"], retry=0, per_page=2)
other = github.Github(base_url=api, login_or_token=os.environ["OTHER_TOKEN"], retry=0)
out = {}

me = owner.get_user()
gist = me.create_gist(
    True,
    {"hello.py": InputFileContent("print('hello')\n"), "notes.md": InputFileContent("# notes\n")},
    "first version",
)
out["created"] = {"id": gist.id, "url": gist.url, "files": sorted(gist.files), "public": gist.public}

# edit: a new description, one file changed, one deleted, one added; the Gist object takes the answer in place.
gist.edit(
    description="second version",
    files={"hello.py": InputFileContent("print('hello, again')\n"), "notes.md": None, "extra.txt": InputFileContent("more\n")},
)
out["edited"] = {"description": gist.description, "files": sorted(gist.files), "hello": gist.files["hello.py"].content}

# history: the gist read again, newest version first.
fresh = owner.get_gist(gist.id)
out["history"] = [{"version": h.version, "additions": h.change_status.additions, "deletions": h.change_status.deletions} for h in fresh.history]

# fork, as another user; the fork is theirs and points back at the original.
fork = other.get_gist(gist.id).create_fork()
out["fork"] = {"id": fork.id, "owner": fork.owner.login, "files": sorted(fork.files)}
out["forks_of_original"] = [f.id for f in owner.get_gist(gist.id).forks]

# star, check, unstar, check: the other user's view.
theirs = other.get_gist(gist.id)
theirs.set_starred()
starred = theirs.is_starred()
theirs.reset_starred()
out["star"] = {"after_set": starred, "after_reset": theirs.is_starred()}

# comments from both users, listed through a PaginatedList.
gist.create_comment("first!")
theirs.create_comment("nice gist")
out["comments"] = [{"user": c.user.login, "body": c.body} for c in gist.get_comments()]

# two more gists: with per_page=2 the owner's list has two pages (3 gists); page 2 is reached through the Link header.
me.create_gist(False, {"b.txt": InputFileContent("b\n")}, "secret one")
me.create_gist(True, {"c.txt": InputFileContent("c\n")}, "public two")
listing = me.get_gists()
out["list"] = {
    "page0": [g.description for g in listing.get_page(0)],
    "page1": [g.description for g in listing.get_page(1)],
    "all": [g.description for g in listing],
}

# delete; reading it again is a 404.
gist.delete()
try:
    owner.get_gist(gist.id)
    out["after_delete"] = "still there"
except github.UnknownObjectException as e:
    out["after_delete"] = e.status

print(json.dumps(out))
