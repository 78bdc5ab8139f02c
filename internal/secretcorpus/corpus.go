// Package secretcorpus is the test corpus of secret shapes and of benign
// coding text that redaction is measured on (docs/redaction.md): the redact
// package's own corpus test and the end-to-end import test of the command
// share it, so both judge the same shapes.
//
// Every secret is fake and built from pieces at run time (prefix + a
// seeded pseudo-random body), so secret scanners do not flag the sources.
package secretcorpus

import (
	"math/rand/v2"
	"strings"
)

// Shape is one realistic way a secret appears in a coding session.
type Shape struct {
	// Family is the redact family expected to catch it (documentation
	// and failure messages only).
	Family string
	// Name says what the shape is.
	Name string
	// Text is the context holding the secret, as a person, a file or a
	// tool would write it; it may span lines.
	Text string
	// Secrets are the values that must not survive redaction.
	Secrets []string
}

const (
	alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	upper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	hexLo = "0123456789abcdef"
	b64   = alnum + "+/"
	b64u  = alnum + "-_"
)

// gen makes the deterministic pseudo-random bodies of one corpus build.
type gen struct{ r *rand.Rand }

func (g gen) s(alphabet string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[g.r.IntN(len(alphabet))]
	}
	// Generated tokens always hold a digit and both cases; a body that
	// happens to lack them would test luck, not the rule.
	if strings.ContainsAny(alphabet, "0123456789") && n > 2 {
		b[n/2] = "0123456789"[g.r.IntN(10)]
	}
	return string(b)
}

// Shapes returns the corpus, the same on every call.
func Shapes() []Shape {
	g := gen{rand.New(rand.NewPCG(10, 1))}
	var out []Shape
	add := func(family, name, text string, secrets ...string) {
		out = append(out, Shape{Family: family, Name: name, Text: text, Secrets: secrets})
	}
	keyBlocks(g, add)
	aiAndCode(g, add)
	cloud(g, add)
	saas(g, add)
	assignments(g, add)
	commands(g, add)
	return out
}

type adder func(family, name, text string, secrets ...string)

func pem(g gen, kind string) (string, []string) {
	lines := []string{g.s(b64, 64), g.s(b64, 64), g.s(b64, 64), g.s(b64, 40) + "=="}
	text := "-----BEGIN " + kind + "PRIVATE KEY-----\n" + strings.Join(lines, "\n") + "\n-----END " + kind + "PRIVATE KEY-----"
	return text, lines
}

func keyBlocks(g gen, add adder) {
	for _, k := range []struct{ name, kind string }{{"RSA private key", "RSA "}, {"OpenSSH private key", "OPENSSH "},
		{"EC private key", "EC "}, {"PKCS#8 private key", ""}} {
		text, secrets := pem(g, k.kind)
		add("pem-private-key", k.name, "key file:\n"+text+"\n", secrets...)
	}
	age := "AGE-SECRET-" + "KEY-1" + g.s("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58)
	add("vendor-token", "age identity", "# created: 2026-11-30\n# public key: age1xyz\n"+age, age)
}

func aiAndCode(g gen, add adder) {
	t := func(family, name, prefix, alphabet string, n int, context string) {
		v := prefix + g.s(alphabet, n)
		add(family, name, strings.ReplaceAll(context, "{}", v), v)
	}
	t("openai-anthropic", "OpenAI project key", "sk-"+"proj-", b64u, 120, "export OPENAI_API_KEY={}")
	t("openai-anthropic", "Anthropic API key", "sk-"+"ant-api03-", b64u, 93, "client = Anthropic(api_key=\"{}\")")
	t("openai-anthropic", "OpenAI legacy key", "sk-", alnum, 48, "the key {} stopped working")
	t("github", "GitHub classic PAT", "gh"+"p_", alnum, 36, "GITHUB_TOKEN={}")
	t("github", "GitHub OAuth token", "gh"+"o_", alnum, 36, "oauth token: {}")
	t("github", "GitHub fine-grained PAT", "github"+"_pat_", alnum+"_", 82, "use {} for the API")
	t("github", "GitHub app token in a remote URL", "gh"+"s_", alnum, 36,
		"git remote set-url origin https://x-access-token:{}@github.com/acme/api.git")
	t("gitlab", "GitLab PAT", "gl"+"pat-", b64u, 20, "curl --header \"PRIVATE-TOKEN: {}\" https://gitlab.example.com/api/v4/projects")
	t("vendor-token", "GitLab runner token", "gl"+"rt-", b64u, 24, "runner registered with {}")
	t("vendor-token", "npm token", "np"+"m_", alnum, 36, "npm token created: {}")
	t("vendor-token", ".npmrc npm token", "np"+"m_", alnum, 36, "//registry.npmjs.org/:_authToken={}")
	t("credential-assignment", ".npmrc token of another registry", "", hexLo, 32, "//npm.pkg.example.com/:_authToken={}")
	t("vendor-token", "PyPI token", "pypi-"+"AgEIcHlwaS5vcmc", b64u, 70, "[pypi]\nusername = __token__\npassword = {}")
	t("vendor-token", "Hugging Face token", "h"+"f_", alnum, 34, "huggingface-cli login --token {}")
	t("vendor-token", "RubyGems key", "rubygems"+"_", hexLo, 48, ":rubygems_api_key: {}")
	t("vendor-token", "Docker Hub PAT", "dckr"+"_pat_", b64u, 27, "echo {} | docker login -u acme --password-stdin")
	t("jwt", "JWT in a cookie", "eyJ"+"hbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI", b64u, 30, "Cookie: session={}.sig"+g.s(b64u, 40))
	t("vendor-token", "Groq key", "gs"+"k_", alnum, 52, "GROQ key {}")
	t("vendor-token", "Replicate token", "r8"+"_", alnum, 37, "replicate token {}")
	t("vendor-token", "Atlassian API token", "ATATT"+"3xFfGF0", b64u, 180, "jira token: {}")
	t("vendor-token", "Linear API key", "lin"+"_api_", alnum, 40, "linear key {}")
	t("vendor-token", "Notion integration token", "nt"+"n_", alnum, 46, "notion {}")
	t("vendor-token", "Postman API key", "PM"+"AK-", hexLo, 24, "postman {}-"+g.s(hexLo, 34))
	t("vendor-token", "Sentry auth token", "sntr"+"ys_", b64u, 60, "SENTRY auth {}")
	t("vendor-token", "Grafana service account token", "gl"+"sa_", alnum, 32, "grafana {}_"+g.s(hexLo, 8))
}

func cloud(g gen, add adder) {
	akia := "AK" + "IA" + g.s(upper, 16)
	add("aws-access-key-id", "AWS access key id", "aws configure set aws_access_key_id "+akia, akia)
	sec := g.s(b64, 40)
	add("aws-secret", "AWS secret key (ini)", "[default]\naws_access_key_id = AKIA"+"EXAMPLE\naws_secret_access_key = "+sec, sec)
	tok := g.s(b64, 300)
	add("aws-secret", "AWS session token (ini)", "[tmp]\naws_session_token = "+tok, tok)
	sec2 := g.s(b64, 40)
	add("env-assignment", "AWS secret key (env)", "export AWS_SECRET_ACCESS_KEY="+sec2, sec2)
	tok2 := g.s(b64, 200)
	add("env-assignment", "AWS session token (env)", "AWS_SESSION_TOKEN="+tok2, tok2)
	aiza := "AI" + "za" + g.s(b64u, 35)
	add("google-api-key", "Google API key", "const firebaseConfig = { apiKey: \""+aiza+"\" };", aiza)
	rt := "1/" + "/0g" + g.s(b64u, 60)
	add("google-oauth-refresh", "Google refresh token", "refresh_token="+rt, rt)
	cs := "GOC" + "SPX-" + g.s(b64u, 28)
	add("vendor-token", "Google OAuth client secret", `{"installed":{"client_id":"123.apps.googleusercontent.com","client_secret":"`+cs+`"}}`, cs)
	ya := "ya29." + g.s(b64u, 120)
	add("keyed-credential", "Google access token in JSON", `{"access_token": "`+ya+`", "expires_in": 3599}`, ya)
	ak := g.s(b64, 86) + "=="
	add("azure-key", "Azure storage connection string",
		"AZURE_STORAGE_CONNECTION_STRING=\"DefaultEndpointsProtocol=https;AccountName=acme;AccountKey="+ak+";EndpointSuffix=core.windows.net\"", ak)
	sak := g.s(b64, 43) + "="
	add("azure-key", "Azure Service Bus key",
		"Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey="+sak, sak)
	sig := g.s(alnum, 30) + "%2B" + g.s(alnum, 10) + "%3D"
	add("azure-key", "Azure SAS URL", "https://acme.blob.core.windows.net/c/f.txt?sv=2022-11-02&ss=b&srt=o&sp=r&se=2026-12-01T00:00:00Z&sig="+sig, sig)
	adsec := g.s(alnum, 3) + "8Q~" + g.s(alnum+"_~.-", 34)
	add("vendor-token", "Azure AD client secret", "client secret value: "+adsec, adsec)
	do := "do" + "p_v1_" + g.s(hexLo, 64)
	add("vendor-token", "DigitalOcean token", "doctl auth init -t "+do, do)
	hvs := "hv" + "s." + g.s(b64u, 90)
	add("vendor-token", "Vault token", "vault login "+hvs, hvs)
	vt := "s." + g.s(alnum, 24)
	add("env-assignment", "Vault token (env)", "export VAULT_TOKEN="+vt, vt)
	dapi := "da" + "pi" + g.s(hexLo, 32)
	add("vendor-token", "Databricks token", "databricks configure --token\nToken: "+dapi, dapi)
	ltai := "LT" + "AI" + g.s(alnum, 20)
	add("vendor-token", "Alibaba access key id", "aliyun configure --access-key-id "+ltai, ltai)
	ts := "tskey-" + "auth-" + g.s(alnum, 12) + "-" + g.s(alnum, 30)
	add("vendor-token", "Tailscale auth key", "tailscale up --authkey="+ts, ts)
	fo := "fo" + "1_" + g.s(b64u, 43)
	add("vendor-token", "Fly.io token", "FLY_API_TOKEN="+fo, fo)
	sbp := "sb" + "p_" + g.s(hexLo, 40)
	add("vendor-token", "Supabase token", "supabase login --token "+sbp, sbp)
	dp := "dp" + ".pt." + g.s(alnum, 43)
	add("vendor-token", "Doppler token", "doppler configure set token "+dp, dp)
	nr := "NR" + "AK-" + g.s(upper, 27)
	add("vendor-token", "New Relic key", "newrelic key "+nr, nr)
	ps := "pscale" + "_pw_" + g.s(b64u, 43)
	add("vendor-token", "PlanetScale password", "mysql://u:"+ps+"@aws.connect.psdb.cloud/db", ps)
}

func saas(g gen, add adder) {
	t := func(family, name, secret, context string) {
		add(family, name, strings.ReplaceAll(context, "{}", secret), secret)
	}
	t("stripe", "Stripe secret key", "sk_"+"live_"+g.s(alnum, 99), "stripe.api_key = \"{}\"")
	t("stripe", "Stripe restricted key", "rk_"+"live_"+g.s(alnum, 99), "restricted: {}")
	t("vendor-token", "Stripe webhook secret", "wh"+"sec_"+g.s(alnum, 32), "STRIPE_WEBHOOK_SECRET is {}")
	t("slack", "Slack bot token", "xo"+"xb-"+g.s("0123456789", 12)+"-"+g.s("0123456789", 13)+"-"+g.s(alnum, 24), "slack bot {}")
	t("slack", "Slack app token", "xa"+"pp-1-A0"+g.s(upper, 9)+"-"+g.s("0123456789", 13)+"-"+g.s(hexLo, 64), "socket mode {}")
	hook := "T" + g.s(upper, 10) + "/B" + g.s(upper, 10) + "/" + g.s(alnum, 24)
	t("slack-webhook", "Slack webhook URL", hook, "curl -X POST -d '{\"text\":\"hi\"}' https://hooks.slack.com/services/{}")
	t("sendgrid", "SendGrid key", "SG"+"."+g.s(b64u, 22)+"."+g.s(b64u, 43), "sendgrid key {}")
	t("twilio-api-key", "Twilio API key SID", "S"+"K"+g.s(hexLo, 32), "twilio api:core:keys -> {}")
	t("env-assignment", "Twilio auth token", g.s(hexLo, 32), "TWILIO_AUTH_TOKEN={}")
	t("vendor-token", "Shopify access token", "shp"+"at_"+g.s(hexLo, 32), "X-Shopify-Access-Token: {}")
	t("discord-bot", "Discord bot token", "MT"+"A"+g.s(b64u, 23)+"."+g.s(b64u, 6)+"."+g.s(b64u, 38), "client.login('{}')")
	t("auth-header", "Discord bot token in a header", "NT"+"k"+g.s(b64u, 23)+"."+g.s(b64u, 6)+"."+g.s(b64u, 38),
		"-H \"Authorization: Bot {}\"")
	t("mailgun", "Mailgun key", "ke"+"y-"+g.s(hexLo, 32), "mailgun api key {}")
	t("env-assignment", "Datadog API key", g.s(hexLo, 32), "DD_API_KEY={}")
	t("telegram-bot", "Telegram bot token", "1234567890:"+"AA"+g.s(b64u, 33), "https://api.telegram.org/bot{}/getMe")
	t("meta-graph", "Meta graph token", "EA"+"A"+g.s(alnum, 120), "fb token {}")
	t("gohighlevel", "GoHighLevel PIT", "pi"+"t-"+"9b2f6c1e-4d3a-4b8e-9f1c-2a7d5e8c3b10", "ghl {}")
	t("vendor-token", "Square token", "sq"+"0atp-"+g.s(b64u, 22), "square {}")
	t("vendor-token", "Pulumi token", "pu"+"l-"+g.s(hexLo, 40), "PULUMI access {}")
	t("vendor-token", "Buildkite token", "bk"+"ua_"+g.s(hexLo, 40), "buildkite {}")
	t("vendor-token", "SonarQube token", "sq"+"u_"+g.s(hexLo, 40), "sonar.login={}")
	t("vendor-token", "Perplexity key", "pp"+"lx-"+g.s(alnum, 48), "pplx {}")
	auth := g.s(b64, 28) + "=="
	add("credential-assignment", "Docker config auth", "{\n  \"auths\": {\n    \"https://index.docker.io/v1/\": {\n      \"auth\": \""+auth+"\"\n    }\n  }\n}", auth)
}

func assignments(g gen, add adder) {
	t := func(family, name, secret, context string) {
		add(family, name, strings.ReplaceAll(context, "{}", secret), secret)
	}
	t("env-assignment", ".env API key", "Zx81kLmQ2pWn7Rt5Yv3Bc9Df"+g.s(alnum, 4), "API_KEY={}")
	t("env-assignment", ".env database password", "hunter2Secret9"+g.s(alnum, 4), "DB_PASSWORD={}")
	t("env-assignment", "quoted env secret", g.s(alnum, 40), "export JWT_SECRET=\"{}\"")
	t("env-assignment", "Django secret key", "django-insecure-"+g.s(alnum+"!@#%^&*(-_=+)", 50), "SECRET_KEY = '{}'")
	t("env-assignment", "YAML env token", "sk-"+"or-v1-"+g.s(hexLo, 64), "env:\n  OPENROUTER_API_KEY: {}")
	t("credential-assignment", "lower-case JSON password", "Tr0ub4dor&3"+g.s(alnum, 5), "{\"user\": \"admin\", \"password\": \"{}\"}")
	t("credential-assignment", "YAML password", "s3cr3t-"+g.s(alnum, 10), "database:\n  user: app\n  password: {}\n  host: db")
	t("credential-assignment", "lower-case api_key", g.s(alnum, 32), "api_key={}")
	t("credential-assignment", "lower-case db_password", "pa55-"+g.s(alnum, 12), "db_password={}")
	t("credential-assignment", "PGPASSWORD", "pg-"+g.s(alnum, 16), "PGPASSWORD={} psql -h db -U app")
	t("credential-assignment", "camelCase secret in JS", g.s(alnum, 40), "const config = { clientSecret: '{}' };")
	t("keyed-credential", "YAML client secret", g.s(alnum, 40), "oauth:\n  client_id: acme\n  client_secret: {}")
	t("auth-header", "Basic auth header", "YWRtaW46"+g.s(b64, 20)+"=", "curl -H \"Authorization: Basic {}\" https://api.example.com")
	t("bearer", "Bearer header", g.s(b64u, 40), "Authorization: Bearer {}")
	t("auth-header", "X-Api-Key header", g.s(alnum, 40), "x-api-key: {}")
	t("url-credentials", "Postgres URL", "pg_"+g.s(alnum, 16), "DATABASE_URL=postgres://app:{}@db.internal:5432/app")
	t("url-credentials", "Redis URL without user", "rd"+g.s(alnum, 16), "redis://:{}@cache:6379/0")
	t("url-credentials", "MongoDB SRV URL", "mg"+g.s(alnum, 16), "mongodb+srv://admin:{}@cluster0.example.net/test")
}

func commands(g gen, add adder) {
	t := func(family, name, secret, context string) {
		add(family, name, strings.ReplaceAll(context, "{}", secret), secret)
	}
	t("mysql-password", "mysql -p", "My5ql"+g.s(alnum, 10), "mysql -u root -p{} -h 127.0.0.1 app")
	t("mysql-password", "mysqldump -p quoted", "dump"+g.s(alnum, 10), "mysqldump -uroot -p'{}' app > app.sql")
	t("curl-user", "curl -u", "cu"+g.s(alnum, 14), "curl -u admin:{} https://api.example.com/v1/me")
	t("credential-flag", "--password", "pw"+g.s(alnum, 14), "docker login --username acme --password {} registry.example.com")
	t("credential-flag", "--db-password=", "dbp"+g.s(alnum, 14), "./migrate --db-password={} up")
	t("credential-flag", "--api-key", g.s(alnum, 32), "app serve --api-key {}")
	t("sshpass", "sshpass -p", "ssh"+g.s(alnum, 12), "sshpass -p '{}' ssh deploy@10.0.0.5")
	t("url-credentials", "git credential URL", "gh"+"p_"+g.s(alnum, 36), "https://acme:{}@github.com")
}
