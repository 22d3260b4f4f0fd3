# Octokit.rb configured by its environment variables alone (OCTOKIT_API_ENDPOINT, OCTOKIT_ACCESS_TOKEN), as its README
# allows: who the token is, its scopes (X-OAuth-Scopes) and the rate limit. Prints one JSON object, or exits 1 printing
# the error class and message (a TLS failure when Ruby's OpenSSL does not trust the server).
require 'json'
require 'octokit'

begin
  client = Octokit.client
  user = client.user
  out = { login: user.login, endpoint: client.api_endpoint, scopes: client.scopes.sort }
  limit = client.rate_limit!
  out[:rate_limit] = { limit: limit.limit, remaining_positive: limit.remaining.positive? }
  puts JSON.generate(out)
rescue StandardError => e
  warn "#{e.class}: #{e.message}"
  exit 1
end
