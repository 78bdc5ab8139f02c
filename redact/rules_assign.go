package redact

import "strings"

// credentialNames are the key names, in any case and with any prefix
// (db_password, dbPassword, _authToken, client.secret), whose value the
// credential-assignment family redacts. A name must end with one of them:
// password_hash, token_count and api_key_env name something else.
const credentialNames = `password|passwd|passphrase|secret|api[_-]?key|apikey|access[_-]?key|secret[_-]?key|` +
	`private[_-]?key|account[_-]?key|auth[_-]?token|access[_-]?token|refresh[_-]?token|api[_-]?token|token|auth|` +
	`credentials?`

// credentialKeys are the keywords of credential-assignment: the endings of
// credentialNames, which the operator must follow. The *key names are
// spelled out so that SORT_KEY= or cache_key: never make a line a
// candidate.
var credentialKeys = []string{"password", "passwd", "passphrase", "secret", "token", "auth", "credential", "credentials",
	"api_key", "api-key", "apikey", "access_key", "access-key", "accesskey", "secret_key", "secret-key", "secretkey",
	"private_key", "private-key", "privatekey", "account_key", "account-key", "accountkey"}

// credentialValue vets the value of a lower- or mixed-case credential
// assignment (`"password": "…"`, `password: …`, `api_key=…`), where code
// is as likely as configuration: references, calls, indexing, type names,
// constants, placeholders and variable names survive. A password may be
// any other value of four or more characters; a token, key or secret must
// also look generated, since such names also hold ids and file names.
func credentialValue(match, secret, after string) bool {
	if !notReference(match, secret, after) || strings.HasPrefix(after, "[") || isPlaceholder(secret) {
		return false
	}
	if after != "" && strings.ContainsAny(after[:1], valueChars) {
		return false // cut at an inner '=': "a_token= b=c" assigns nothing to "b"
	}
	if nonSecretWords[strings.ToLower(secret)] || strings.Trim(secret, "0123456789.") == "" || isVariableName(secret) {
		return false
	}
	name := strings.ToLower(match[:strings.IndexAny(match, "\"' \t:=\\")])
	if strings.Contains(name, "pass") {
		return len(secret) >= 4
	}
	return len(secret) >= 8 && looksRandom(secret)
}

// nonSecretWords are values that declare, describe or disable a credential
// rather than hold one.
var nonSecretWords = map[string]bool{
	"true": true, "false": true, "null": true, "nil": true, "none": true, "undefined": true, "yes": true, "no": true,
	"on": true, "off": true, "string": true, "str": true, "int": true, "int32": true, "int64": true, "uint64": true,
	"number": true, "bool": true, "boolean": true, "bytes": true, "text": true, "any": true, "object": true,
	"optional": true, "required": true, "password": true, "secret": true, "token": true, "hidden": true,
	"masked": true, "redacted": true, "env": true, "file": true, "prompt": true, "stdin": true, "self": true,
}

// isVariableName reports whether s is a snake_case identifier without
// digits (user_password, get_token): code passing a variable.
func isVariableName(s string) bool {
	return strings.Contains(s, "_") && strings.Trim(s, "abcdefghijklmnopqrstuvwxyz_") == ""
}
