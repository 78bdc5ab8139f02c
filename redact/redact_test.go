package redact

import (
	"strings"
	"testing"
)

// Fake secrets are assembled from pieces so that secret scanners do not flag
// this file; fill gives them a random-looking (mixed case, digits) body.
func fill(n int) string {
	const alphabet = "q7Zp2XvN9kLm4RbT8wYc3HdJ6sFg1MeA5uKt0"
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteByte(alphabet[(i*7+3)%len(alphabet)])
	}
	return b.String()
}

var (
	ghp       = "gh" + "p_" + fill(36)
	ghs       = "gh" + "s_" + fill(36)
	ghPAT     = "github" + "_pat_" + fill(22) + "_" + fill(59)
	skProj    = "sk-" + "proj-" + fill(48)
	skAnt     = "sk-" + "ant-api03-" + fill(80)
	skPlain   = "sk-" + fill(48)
	stripeSK  = "sk_" + "live_" + fill(24)
	stripeRK  = "rk_" + "live_" + fill(24)
	glpat     = "gl" + "pat-" + fill(20)
	akia      = "AK" + "IAIOSFODNN7EXAMPLE"
	asia      = "AS" + "IA" + strings.ToUpper(fill(16))
	awsSecret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + "EXAMPLEKEY"
	aiza      = "AI" + "za" + fill(35)
	oauth1    = "1/" + "/0g" + fill(40)
	xoxb      = "xo" + "xb-" + "1234567890-" + fill(24)
	xapp      = "xa" + "pp-1-A0123-" + fill(20)
	eaa       = "EA" + "A" + fill(30)
	telegram  = "123456789:" + "AA" + fill(33)
	pit       = "pi" + "t-" + "123e4567-e89b-12d3-a456-426614174000"
	jwt       = "eyJ" + "hbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0." + "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
	pemBody   = "MIIEowIBAAKCAQEA" + fill(60) + "\n" + fill(64) + "\n" + fill(20) + "=="
)

type redactCase struct {
	name, in, want string
}

// familyCases has, for every family, inputs that must be redacted and
// lookalikes that must survive unchanged (want == in).
var familyCases = map[string][]redactCase{
	"pem-private-key": {
		{"rsa block", "key:\n-----BEGIN RSA PRIVATE KEY-----\n" + pemBody + "\n-----END RSA PRIVATE KEY-----\ndone",
			"key:\n-----BEGIN RSA PRIVATE KEY-----[REDACTED]-----END RSA PRIVATE KEY-----\ndone"},
		{"pkcs8 block", "-----BEGIN PRIVATE KEY-----\n" + pemBody + "\n-----END PRIVATE KEY-----",
			"-----BEGIN PRIVATE KEY-----[REDACTED]-----END PRIVATE KEY-----"},
		{"encrypted headers", "-----BEGIN EC PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,AB12\n\n" + pemBody + "\n-----END EC PRIVATE KEY-----",
			"-----BEGIN EC PRIVATE KEY-----[REDACTED]-----END EC PRIVATE KEY-----"},
		{"json escaped", `{"k":"-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn` + fill(40) + `\n-----END OPENSSH PRIVATE KEY-----\n"}`,
			`{"k":"-----BEGIN OPENSSH PRIVATE KEY-----[REDACTED]-----END OPENSSH PRIVATE KEY-----\n"}`},
		{"pgp block", "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n" + pemBody + "\n-----END PGP PRIVATE KEY BLOCK-----",
			"-----BEGIN PGP PRIVATE KEY BLOCK-----[REDACTED]-----END PGP PRIVATE KEY BLOCK-----"},
		{"truncated block", "-----BEGIN OPENSSH PRIVATE KEY-----\n" + pemBody, "-----BEGIN OPENSSH PRIVATE KEY-----[REDACTED]"},
		{"public key survives", "-----BEGIN PUBLIC KEY-----\n" + pemBody + "\n-----END PUBLIC KEY-----", ""},
		{"certificate survives", "-----BEGIN CERTIFICATE-----\n" + pemBody + "\n-----END CERTIFICATE-----", ""},
		{"prose survives", "the private key lives in the agent; never print a PRIVATE KEY", ""},
	},
	"jwt": {
		{"token", "cookie=" + jwt + "; path=/", "cookie=[REDACTED]; path=/"},
		{"in json", `{"id_token":"` + jwt + `"}`, `{"id_token":"[REDACTED]"}`},
		{"header only survives", "eyJhbGciOiJIUzI1NiJ9 is a JWT header", ""},
		{"short segments survive", "eyJabc.def.ghi and v1.2.3 and file.tar.gz", ""},
	},
	"openai-anthropic": {
		{"plain", "key " + skPlain + " end", "key [REDACTED] end"},
		{"project", "OPENAI=" + skProj, "OPENAI=[REDACTED]"},
		{"anthropic", "use " + skAnt, "use [REDACTED]"},
		{"prose survives", "keys start with the sk- prefix", ""},
		{"task id survives", "see task-1234567890abcdefghij and risk-1234567890abcdefgh", ""},
		{"kebab words survive", "sk-learn-style-options-here-too", ""},
		{"short survives", "sk-abc123", ""},
	},
	"stripe": {
		{"secret key", "stripe " + stripeSK, "stripe [REDACTED]"},
		{"restricted key", "stripe " + stripeRK, "stripe [REDACTED]"},
		{"short survives", "sk_live_abc and my_test_helper_function", ""},
	},
	"github": {
		{"classic", "token " + ghp, "token [REDACTED]"},
		{"server", "x " + ghs + "\n", "x [REDACTED]\n"},
		{"fine grained", "pat=" + ghPAT, "pat=[REDACTED]"},
		{"prefix in prose survives", "tokens look like ghp_ followed by 36 chars; ghp_short", ""},
	},
	"gitlab": {
		{"pat", "token " + glpat, "token [REDACTED]"},
		{"short survives", "glpat-short", ""},
	},
	"aws-access-key-id": {
		{"akia", "id " + akia + " ok", "id [REDACTED] ok"},
		{"asia", "[" + asia + "]", "[[REDACTED]]"},
		{"too long survives", "id " + akia + "X", ""},
		{"prose survives", "ASIAN cuisine; AKIA1234", ""},
	},
	"aws-secret": {
		{"credentials file", "aws_secret_access_key = " + awsSecret, "aws_secret_access_key = [REDACTED]"},
		{"session token", "aws_session_token=" + fill(40), "aws_session_token=[REDACTED]"},
		{"prose survives", "set aws_secret_access_key in the profile", ""},
	},
	"google-api-key": {
		{"key", "key=" + aiza + "&q=1", "key=[REDACTED]&q=1"},
		{"short survives", "AIzaShort", ""},
	},
	"google-oauth-refresh": {
		{"refresh", "refresh " + oauth1, "refresh [REDACTED]"},
		{"url path survives", "https://example.com/v1//items/abcdefghijklmnopqrstuv", ""},
	},
	"slack": {
		{"bot", "slack " + xoxb, "slack [REDACTED]"},
		{"app", "slack " + xapp, "slack [REDACTED]"},
		{"short survives", "xoxb- and xox-foo", ""},
	},
	"meta-graph": {
		{"token", "fb " + eaa, "fb [REDACTED]"},
		{"no entropy survives", "EAAAAAAAAAAAAAAAAAAAAAAAAAA", ""},
	},
	"telegram-bot": {
		{"bot token", "bot" + telegram, "bot[REDACTED]"},
		{"times survive", "meet 12:30 AA team; 123456789:AB" + fill(33), ""},
	},
	"gohighlevel": {
		{"pit", "ghl " + pit, "ghl [REDACTED]"},
		{"pit stop survives", "pit-stop at 123e4567-e89b-12d3-a456-426614174000", ""},
	},
	"bearer": {
		{"header", "Authorization: Bearer " + fill(32), "Authorization: Bearer [REDACTED]"},
		{"lower case curl", "curl -H 'authorization: bearer " + fill(24) + "' url", "curl -H 'authorization: bearer [REDACTED]' url"},
		{"prose survives", "Use the Bearer scheme; send a Bearer token", ""},
		{"kebab survives", "bearer authentication-is-the-default-here", ""},
	},
	"auth-header": {
		{"basic", "Authorization: Basic dXNlcjpwYXNzd29yZA==", "Authorization: Basic [REDACTED]"},
		{"api key", "X-Api-Key: abcd1234efgh", "X-Api-Key: [REDACTED]"},
		{"private token", "Private-Token: 9koXpg98eAheJpvBs5tK", "Private-Token: [REDACTED]"},
		{"json token scheme", `"Authorization": "Token 1234567890ab"`, `"Authorization": "Token [REDACTED]"`},
		{"short survives", "Authorization: short", ""},
		{"reference survives", "Authorization: $TOKEN; authorization: ${API_TOKEN}; Authorization: process.env.TOKEN", ""},
	},
	"keyed-credential": {
		{"header", "X-Auth-Token: a1b2c3d4e5f6", "X-Auth-Token: [REDACTED]"},
		{"json", `{"access_token": "ya29.a0AfH6SMBx3", "expires_in": 3599}`, `{"access_token": "[REDACTED]", "expires_in": 3599}`},
		{"yaml", "api_key: Zx81kd02mD", "api_key: [REDACTED]"},
		{"client secret", `client_secret: "` + fill(24) + `"`, `client_secret: "[REDACTED]"`},
		{"types survive", "apiKey: string; accessToken: this.accessToken", ""},
		{"words survive", "max-token: unlimited; api-key: required-field", ""},
	},
	"env-assignment": {
		{"export", "export OPENAI_API_KEY=abc123def456", "export OPENAI_API_KEY=[REDACTED]"},
		{"double quoted", `GITHUB_TOKEN="hunter2hunter2"`, `GITHUB_TOKEN="[REDACTED]"`},
		{"json", `{"ANTHROPIC_API_KEY": "whatever-1"}`, `{"ANTHROPIC_API_KEY": "[REDACTED]"}`},
		{"yaml", "DB_PASSWORD: s3cr3t", "DB_PASSWORD: [REDACTED]"},
		{"single quoted with spaces", "PASSWORD='correct horse battery staple'", "PASSWORD='[REDACTED]'"},
		{"aws secret env", "AWS_SECRET_ACCESS_KEY=" + awsSecret, "AWS_SECRET_ACCESS_KEY=[REDACTED]"},
		{"escaped json", `{\"HF_TOKEN\": \"hf_abc123xyz\"}`, `{\"HF_TOKEN\": \"[REDACTED]\"}`},
		{"credentials", "GOOGLE_CREDENTIALS=eyAidHlwZSI6", "GOOGLE_CREDENTIALS=[REDACTED]"},
		{"random bare key", "STRIPE_WEBHOOK_KEY=whk8Hs72Jd", "STRIPE_WEBHOOK_KEY=[REDACTED]"},
		{"references survive", "TOKEN=$TOKEN API_KEY=${API_KEY} GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}", ""},
		{"numbers survive", "MAX_TOKENS=4096 MAX_TOKEN=4096", ""},
		{"plain key names survive", "SORT_KEY=name CACHE_KEY: users", ""},
		{"empty and booleans survive", "PASSWORD= USE_PASSWORD=true NO_TOKEN=none", ""},
		{"code survives", "API_KEY := os.Getenv(\"API_KEY\")\nTOKEN = getToken()\nSECRET == other", ""},
		{"lower case survives", "api_key=lowercase", ""},
	},
	"url-credentials": {
		{"postgres", "postgres://app:s3cret@db.internal:5432/app", "postgres://app:[REDACTED]@db.internal:5432/app"},
		{"empty user", "redis://:hunter2@cache:6379", "redis://:[REDACTED]@cache:6379"},
		{"token user", "https://x-access-token:" + ghs + "@github.com/o/r.git", "https://x-access-token:[REDACTED]@github.com/o/r.git"},
		{"port survives", "https://example.com:8443/path and http://host:8080/p?mail=a@b.c", ""},
		{"user only survives", "ssh://git@github.com/o/r and git@github.com:o/r.git", ""},
		{"reference survives", "postgres://user:${PGPASSWORD}@db/x", ""},
	},
	"vendor-token": {
		{"npm", "token " + "np" + "m_" + fill(36) + " ok", "token [REDACTED] ok"},
		{"vault", "vault login " + "hv" + "s." + fill(40), "vault login [REDACTED]"},
		{"webhook secret", "wh" + "sec_" + fill(32), "[REDACTED]"},
		{"prefix in words survives", "npm_config_cache and hf_transfer and dapi_version and sbp_x", ""},
		{"hex too long survives", "dapi" + strings.Repeat("ab12", 10), ""},
	},
	"twilio-api-key": {
		{"sid", "key SK" + strings.Repeat("0a1b", 8), "key [REDACTED]"},
		{"task survives", "TASK" + strings.Repeat("0a1b", 8) + " and SK" + strings.Repeat("0a1b", 10), ""},
	},
	"mailgun": {
		{"key", "mg key-" + strings.Repeat("0a1b", 8), "mg [REDACTED]"},
		{"prose survives", "a key-value store keyed by key-" + strings.Repeat("0a1b", 4), ""},
	},
	"sendgrid": {
		{"key", "SG." + fill(22) + "." + fill(43), "[REDACTED]"},
		{"msg survives", "msg.Content and msg." + fill(22) + ".x", ""},
	},
	"discord-bot": {
		{"bot token", "login('MTAx" + fill(22) + "." + fill(6) + "." + fill(38) + "')", "login('[REDACTED]')"},
		{"dotted words survive", "content.length.toString and MTAxMjM0NTY3ODkw.abcdef.ghijklmnopqrstuvwxyzabcdefgh", ""},
	},
	"slack-webhook": {
		{"url", "https://hooks.slack.com/services/T0123ABCD/B0123ABCD/" + fill(24), "https://hooks.slack.com/services/[REDACTED]"},
		{"docs survive", "post to https://hooks.slack.com/services/your/webhook/path", ""},
	},
	"azure-key": {
		{"account key", "AccountName=a;AccountKey=" + fill(86) + "==;EndpointSuffix=x", "AccountName=a;AccountKey=[REDACTED];EndpointSuffix=x"},
		{"sas", "f.txt?sv=2022&sig=" + fill(30) + "%3D", "f.txt?sv=2022&sig=[REDACTED]"},
		{"short sig survives", "?sig=abc and design=modern", ""},
	},
	"credential-assignment": {
		{"json password", `{"password": "hunter2x"}`, `{"password": "[REDACTED]"}`},
		{"yaml password", "  password: s3cr3t-pw", "  password: [REDACTED]"},
		{"lower api key", "api_key=" + fill(32), "api_key=[REDACTED]"},
		{"npmrc", "//r.example.com/:_authToken=" + fill(32), "//r.example.com/:_authToken=[REDACTED]"},
		{"code survives", "password: str; token = get_token(); api_key = os.environ[\"K\"]; password=user_password", ""},
		{"names survive", "password_hash=x token_count=5 api_key_env=OPENAI_API_KEY password: ${DB_PASSWORD}", ""},
	},
	"mysql-password": {
		{"glued", "mysql -u root -pS3cret99 app", "mysql -u root -p[REDACTED] app"},
		{"prompt survives", "mysql -u root -p app; mysql -P3306 -p", ""},
	},
	"sshpass": {
		{"quoted", "sshpass -p 'pw9x' ssh h", "sshpass -p '[REDACTED]' ssh h"},
		{"file survives", "sshpass -f ~/.pw ssh h; sshpass -p \"$PW\" ssh h", ""},
	},
	"curl-user": {
		{"user password", "curl -u admin:pw12345 https://h", "curl -u admin:[REDACTED] https://h"},
		{"reference survives", "curl -u \"$U:$P\" https://h; curl -u admin https://h", ""},
	},
	"credential-flag": {
		{"password", "login --password hunter2 x", "login --password [REDACTED] x"},
		{"equals", "--db-password=pw99x", "--db-password=[REDACTED]"},
		{"files survive", "--password-file /run/s --password-stdin --token-file t --api-key $KEY --password PASSWORD", ""},
	},
	"plain text": {
		{"ids survive", "uuid 123e4567-e89b-12d3-a456-426614174000 sha 9fceb02d0ae598e95dc970b74767f19372d61af8 task-1234", ""},
		{"unicode survives", "ünïcødé — 日本語のテキスト token: ✓", ""},
	},
}

func TestFamilies(t *testing.T) {
	for _, r := range append(blockRules(), lineRules()...) {
		if len(familyCases[r.name]) == 0 {
			t.Errorf("family %q has no test cases", r.name)
		}
	}
	for family, cases := range familyCases {
		for _, tc := range cases {
			t.Run(family+"/"+tc.name, func(t *testing.T) {
				want := tc.want
				if want == "" {
					want = tc.in
				}
				got := String(tc.in)
				if got != want {
					t.Fatalf("String(%q)\n got %q\nwant %q", tc.in, got, want)
				}
				if again := String(got); again != got {
					t.Fatalf("not idempotent: %q -> %q", got, again)
				}
			})
		}
	}
}

// TestEveryPositiveHasBothKinds makes sure each family proves both that it
// catches its secret and that it spares a lookalike.
func TestEveryPositiveHasBothKinds(t *testing.T) {
	for family, cases := range familyCases {
		if family == "plain text" {
			continue
		}
		var pos, neg bool
		for _, tc := range cases {
			if tc.want == "" {
				neg = true
			} else {
				pos = true
			}
		}
		if !pos || !neg {
			t.Errorf("family %q: positive=%v negative=%v, want both", family, pos, neg)
		}
	}
}

func TestCount(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{"", 0},
		{"nothing to see", 0},
		{"a " + ghp + " b " + skPlain, 2},
		{"Authorization: Bearer " + fill(32) + "\nexport GITHUB_TOKEN=" + ghp, 2},
		{"postgres://u:p4ss@h/db", 1},
	}
	for _, tc := range tests {
		got, n := Count(tc.in)
		if n != tc.want {
			t.Errorf("Count(%q) = %d (%q), want %d", tc.in, n, got, tc.want)
		}
		if n == 0 && got != tc.in {
			t.Errorf("Count(%q) changed text without counting: %q", tc.in, got)
		}
	}
}

// TestMixedDocument checks that several families on neighbouring lines and
// in one line are all caught and nothing else changes.
func TestMixedDocument(t *testing.T) {
	in := strings.Join([]string{
		"$ env | grep -i key",
		"OPENAI_API_KEY=" + skProj,
		"line with " + ghp + " and " + akia + " and " + xoxb,
		"curl -H 'Authorization: Bearer " + jwt + "' https://api.example.com",
		"no secrets here: sha 9fceb02d0ae598e95dc970b74767f19372d61af8",
	}, "\n")
	want := strings.Join([]string{
		"$ env | grep -i key",
		"OPENAI_API_KEY=[REDACTED]",
		"line with [REDACTED] and [REDACTED] and [REDACTED]",
		"curl -H 'Authorization: Bearer [REDACTED]' https://api.example.com",
		"no secrets here: sha 9fceb02d0ae598e95dc970b74767f19372d61af8",
	}, "\n")
	if got := String(in); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestUnchangedTextIsNotCopied(t *testing.T) {
	in := strings.Repeat("plain words without credentials\n", 100)
	if got := String(in); got != in {
		t.Fatal("plain text changed")
	}
}

func TestAsciiLowerKeepsOffsets(t *testing.T) {
	in := "ÀBC İstanbul ẞ KEY"
	got := asciiLower(in)
	if len(got) != len(in) {
		t.Fatalf("length changed: %d -> %d", len(in), len(got))
	}
	if !strings.HasSuffix(got, " key") || !strings.Contains(got, "bc") {
		t.Fatalf("ASCII letters not lowered: %q", got)
	}
}
