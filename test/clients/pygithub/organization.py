# PyGithub against hublet's organizations: repositories (create, get, edit), webhooks (create, edit, ping, delete),
# migrations (start, poll the status, archive URL and download, delete), the user's orgs and the members. Prints one
# JSON object; test/clients/pygithub.test.ts asserts on it.
import json
import os
import time
import urllib.request

import github

g = github.Github(base_url=os.environ["HUBLET_API"], login_or_token=os.environ["TOKEN"], retry=0)
org = g.get_organization(os.environ["ORG"])
out = {"org": {"login": org.login, "url": org.url}}
out["my_orgs"] = [o.login for o in g.get_user().get_orgs()]
out["members"] = [m.login for m in org.get_members()]

# repositories: create in the organization, read it back by full name, edit it.
repo = org.create_repo("tools", description="shared tools", private=True, auto_init=True)
out["repo_created"] = {"full_name": repo.full_name, "private": repo.private, "default_branch": repo.default_branch}
repo = g.get_repo(f"{org.login}/tools")
repo.edit(description="shared tools, edited", has_wiki=False)
out["repo_edited"] = {"description": repo.description, "has_wiki": repo.has_wiki}
out["org_repos"] = [r.name for r in org.get_repos()]

# webhooks: create, edit (events and the URL), ping, list.
hook = org.create_hook("web", {"url": os.environ["HOOK_URL"], "content_type": "json", "secret": "s3cret"}, ["push"], True)
out["hook_created"] = {"id": hook.id, "events": hook.events, "active": hook.active, "url": hook.url}
hook.edit("web", {"url": os.environ["HOOK_URL"] + "/edited", "content_type": "json"}, events=["push", "repository"], active=True)
out["hook_edited"] = {"events": sorted(hook.events), "config_url": hook.config["url"]}
hook.ping()
out["hooks"] = [{"id": h.id, "events": sorted(h.events)} for h in org.get_hooks()]

# migrations: start one for the repository, poll until it is exported, then ask for the archive's URL.
migration = org.create_migration(["tools"], lock_repositories=False, exclude_attachments=True)
out["migration_started"] = {"id": migration.id, "state": migration.state, "repos": [r.full_name for r in migration.repositories]}
states = []
deadline = time.time() + 30
while time.time() < deadline:
    state = migration.get_status()
    if not states or states[-1] != state:
        states.append(state)
    if state in ("exported", "failed"):
        break
    time.sleep(0.2)
out["migration_states"] = states
out["archive_url"] = migration.get_archive_url()
# the signed URL downloads the archive without credentials (a gzip stream).
with urllib.request.urlopen(out["archive_url"]) as response:
    out["archive_download"] = {"status": response.status, "magic": response.read(2).hex()}
out["migrations"] = [m.id for m in org.get_migrations()]
# delete the archive: asking for its URL again is a 404 (GitHub: the archive is gone).
migration.delete()
try:
    migration.get_archive_url()
    out["archive_after_delete"] = "still there"
except github.GithubException as e:
    out["archive_after_delete"] = e.status

# delete the hook: the organization has none left.
hook.delete()
out["hooks_after_delete"] = [h.id for h in org.get_hooks()]

print(json.dumps(out))
