# Octokit.rb against hublet's gists: create with several files, edit, rename and delete a file, commits, star, fork,
# comments, and lists followed page by page through auto_paginate. Prints one JSON object;
# test/clients/ruby-octokit.test.ts asserts on it. Run with Debian's /usr/bin/ruby (ruby-octokit), trusting hublet's
# test CA through SSL_CERT_FILE.
require 'json'
require 'octokit'

api = ENV.fetch('HUBLET_API')
# As Octokit.rb's README says for GitHub Enterprise: the API endpoint, a token; per_page 2 and auto_paginate so that
# every list below is several pages that Octokit follows through the Link header.
owner = Octokit::Client.new(access_token: ENV.fetch('OWNER_TOKEN'), api_endpoint: api, auto_paginate: true, per_page: 2)
other = Octokit::Client.new(access_token: ENV.fetch('OTHER_TOKEN'), api_endpoint: api)
out = {}

gist = owner.create_gist(
  description: 'first version',
  public: true,
  files: {
    'hello.rb' => { content: "puts 'hello'\n" },
    'notes.md' => { content: "# notes\n" },
    'old-name.txt' => { content: "kept\n" },
  },
)
out[:created] = {
  id: gist.id, url: gist.url, html_url: gist.html_url, public: gist.public, owner: gist.owner.login,
  files: gist.files.to_h.keys.map(&:to_s).sort, status: owner.last_response.status,
  location: owner.last_response.headers['location'],
}

# edit: a new description and one file's content.
edited = owner.edit_gist(gist.id, description: 'second version', files: { 'hello.rb' => { content: "puts 'hello, again'\n" } })
out[:edited] = { description: edited.description, hello: edited.files['hello.rb'].content }
# rename a file (its content stays), then delete one (a null file).
renamed = owner.edit_gist(gist.id, files: { 'old-name.txt' => { filename: 'new-name.txt' } })
out[:renamed] = { files: renamed.files.to_h.keys.map(&:to_s).sort, content: renamed.files['new-name.txt'].content }
deleted_file = owner.edit_gist(gist.id, files: { 'notes.md' => nil })
out[:file_deleted] = deleted_file.files.to_h.keys.map(&:to_s).sort

# commits: four versions over two pages of two, followed by auto_paginate.
commits = owner.gist_commits(gist.id)
out[:commits] = commits.map { |c| { user: c.user.login, additions: c.change_status.additions, deletions: c.change_status.deletions } }
# one version by its sha: the first one's files.
first = owner.gist(gist.id, sha: commits.last.version)
out[:first_version] = first.files.to_h.keys.map(&:to_s).sort

# star, check, unstar, check: the other user's view; the starred list while starred.
out[:star] = {
  star: other.star_gist(gist.id),
  starred: other.gist_starred?(gist.id),
  starred_list: other.starred_gists.map(&:id),
  unstar: other.unstar_gist(gist.id),
  starred_after: other.gist_starred?(gist.id),
}

# fork, as the other user; the original lists it.
fork = other.fork_gist(gist.id)
out[:fork] = { id: fork.id, owner: fork.owner.login, files: fork.files.to_h.keys.map(&:to_s).sort }
out[:forks_of_original] = owner.gist_forks(gist.id).map { |f| f.id }

# comments: one from each user, one edited, listed (two pages of two after a third), one deleted.
c1 = owner.create_gist_comment(gist.id, 'first!')
c2 = other.create_gist_comment(gist.id, 'nice gist')
other.update_gist_comment(gist.id, c2.id, 'nice gist, edited')
owner.create_gist_comment(gist.id, 'thanks')
out[:comments] = owner.gist_comments(gist.id).map { |c| { user: c.user.login, body: c.body } }
out[:comment_deleted] = owner.delete_gist_comment(gist.id, c1.id)
out[:comment_after_delete] = begin
  owner.gist_comment(gist.id, c1.id)
  'still there'
rescue Octokit::NotFound => e
  e.response_status
end

# four more gists: the owner's list is five, three pages of two; every page Octokit followed is recorded.
%w[two three four five].each_with_index do |name, i|
  owner.create_gist(description: "gist #{name}", public: i.even?, files: { "#{name}.txt" => { content: "#{name}\n" } })
end
pages = []
listed = owner.paginate('gists') do |data, response|
  pages << response.env.url.to_s
  data.concat(response.data)
end
out[:list] = {
  all: owner.gists.map(&:description).sort,
  mine_by_login: owner.gists('alice').map(&:description).sort,
  followed_pages: pages,
  through_block: listed.map(&:description).sort,
  public: owner.public_gists.map(&:description).sort,
}

# delete; reading it again is a 404.
out[:deleted] = owner.delete_gist(gist.id)
out[:after_delete] = begin
  owner.gist(gist.id)
  'still there'
rescue Octokit::NotFound => e
  e.response_status
end

puts JSON.generate(out)
