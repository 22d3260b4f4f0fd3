# Octokit.rb against hublet's organizations and the user's own account: repositories (create in the org and for the
# user, get, list), organization webhooks (create, get, edit, ping, list, deliveries, delete), organization and user
# migrations (start, status, list, archive URL and download, unlock, delete the archive). Prints one JSON object;
# test/clients/ruby-octokit.test.ts asserts on it. Octokit.configure, as Octokit.rb's README shows for GitHub Enterprise.
require 'json'
require 'net/http'
require 'octokit'

Octokit.configure do |c|
  c.api_endpoint = ENV.fetch('HUBLET_API')
  c.auto_paginate = true
  c.per_page = 2
end
client = Octokit::Client.new(access_token: ENV.fetch('TOKEN'))
org = ENV.fetch('ORG')
hook_url = ENV.fetch('HOOK_URL')
out = { me: client.user.login, endpoint: client.api_endpoint }

# repositories: three in the organization, one of the user's own; read one back; the lists, two per page.
created = client.create_repository('tools', organization: org, description: 'shared tools', private: true, auto_init: true)
out[:repo_created] = {
  full_name: created.full_name, private: created.private, default_branch: created.default_branch, url: created.url,
  status: client.last_response.status,
}
client.create_repository('site', organization: org, auto_init: true)
client.create_repository('docs', organization: org)
client.create_repository('dotfiles', auto_init: true)
repo = client.repository("#{org}/tools")
out[:repo] = { full_name: repo.full_name, description: repo.description, owner: repo.owner.login, exists: client.repository?("#{org}/nothing") }
out[:org_repos] = client.organization_repositories(org).map(&:name).sort
out[:my_repos] = client.repositories.map(&:full_name).sort
out[:user_repos] = client.repositories(out[:me]).map(&:full_name).sort

# organization webhooks: create, read, edit (config and events), ping, list.
hook = client.create_org_hook(org, { url: hook_url, content_type: 'json', secret: 's3cret' }, events: ['push'], active: true)
out[:hook_created] = { id: hook.id, name: hook.name, events: hook.events, active: hook.active, url: hook.url, ping_url: hook.ping_url }
out[:hook_read] = client.org_hook(org, hook.id).config.url
edited = client.edit_org_hook(org, hook.id, { url: "#{hook_url}/edited", content_type: 'json' }, events: %w[push repository])
out[:hook_edited] = { events: edited.events.sort, config_url: edited.config.url }
out[:pinged] = client.ping_org_hook(org, hook.id)
out[:hooks] = client.org_hooks(org).map { |h| { id: h.id, events: h.events.sort } }

# deliveries: Octokit.rb 4.20 has no call for them, so the paths GitHub documents, through client.get and client.post.
deliveries_path = "orgs/#{org}/hooks/#{hook.id}/deliveries"
deliveries = []
60.times do
  deliveries = client.get(deliveries_path)
  # the ping on creation and ping_org_hook's, both delivered
  break if deliveries.count { |d| d.event == 'ping' && d.status_code == 200 } >= 2
  sleep 0.5
end
ping = deliveries.find { |d| d.event == 'ping' }
out[:deliveries] = deliveries.map { |d| { event: d.event, status_code: d.status_code } }
if ping
  one = client.get("#{deliveries_path}/#{ping.id}")
  out[:delivery] = { id: one.id, event: one.event, request_event: one.request.headers['X-Service-Event'], response: one.response.payload }
  client.post("#{deliveries_path}/#{ping.id}/attempts")
  out[:redelivery_status] = client.last_response.status
end

# organization migration: start (locking the repository), poll its status, the archive URL (the 302's Location, read
# without following it) and its bytes, the list, unlock, delete the archive.
migration = client.start_migration(org, ["#{org}/tools"], lock_repositories: true, exclude_attachments: true)
out[:migration_started] = {
  id: migration.id, state: migration.state, lock_repositories: migration.lock_repositories, url: migration.url,
  repos: migration.repositories.map(&:full_name), accept: client.last_response.env.request_headers['Accept'],
  media_type: client.last_response.headers['X-Service-Media-Type'],
}
states = []
60.times do
  state = client.migration_status(org, migration.id).state
  states << state unless states.last == state
  break if %w[exported failed].include?(state)
  sleep 0.5
end
out[:migration_states] = states
archive_url = client.migration_archive_url(org, migration.id)
download = Net::HTTP.get_response(URI(archive_url))
out[:archive] = { url: archive_url, status: download.code.to_i, magic: download.body[0, 2].unpack1('H*') }
out[:migrations] = client.migrations(org).map(&:id)
# locked: the repository refuses a settings change until the migration unlocks it.
out[:edit_while_locked] = begin
  client.edit_repository("#{org}/tools", description: 'while locked')
  'edited'
rescue Octokit::Forbidden => e
  { status: e.response_status, message: e.response_body && JSON.parse(e.response_body)['message'] }
end
out[:unlocked] = client.unlock_repository(org, migration.id, 'tools')
out[:unlock_status] = client.last_response.status
out[:edit_after_unlock] = client.edit_repository("#{org}/tools", description: 'after the migration').description
client.delete_migration_archive(org, migration.id)
out[:archive_deleted_status] = client.last_response.status
out[:archive_after_delete] = begin
  client.migration_archive_url(org, migration.id)
rescue Octokit::Error => e
  e.response_status
end

# user migration: the same calls under /user/migrations, for the user's own repository.
mine = client.start_user_migration(["#{out[:me]}/dotfiles"], lock_repositories: true)
out[:user_migration_started] = { id: mine.id, state: mine.state, repos: mine.repositories.map(&:full_name) }
user_states = []
60.times do
  state = client.user_migration_status(mine.id).state
  user_states << state unless user_states.last == state
  break if %w[exported failed].include?(state)
  sleep 0.5
end
out[:user_migration_states] = user_states
out[:user_migrations] = client.user_migrations.map(&:id)
out[:user_migration_repositories] = client.user_migration_repositories(mine.id).map(&:full_name)
user_archive = client.user_migration_archive_url(mine.id)
user_download = Net::HTTP.get_response(URI(user_archive))
out[:user_archive] = { url: user_archive, status: user_download.code.to_i, magic: user_download.body[0, 2].unpack1('H*') }
out[:user_edit_while_locked] = begin
  client.edit_repository("#{out[:me]}/dotfiles", description: 'while locked')
  'edited'
rescue Octokit::Forbidden => e
  e.response_status
end
out[:user_unlocked] = client.unlock_user_repository(mine.id, 'dotfiles')
out[:user_unlock_status] = client.last_response.status
out[:user_edit_after_unlock] = client.edit_repository("#{out[:me]}/dotfiles", description: 'mine again').description
out[:user_archive_deleted] = client.delete_user_migration_archive(mine.id)
out[:user_archive_deleted_status] = client.last_response.status

# delete the hook: the organization has none left.
out[:hook_removed] = client.remove_org_hook(org, hook.id)
out[:hooks_after_delete] = client.org_hooks(org).map(&:id)

puts JSON.generate(out)
