package redact

import "strings"

// vendorToken is one vendor's token shape for the vendor-token family:
// its literal prefixes, separated by blanks (their lower case are family
// keywords), and the RE2 text of the whole token.
type vendorToken struct{ prefixes, expr string }

// vendorTokens are the token shapes that carry their vendor's prefix. The
// bodies follow the published formats (lengths are lower bounds where the
// vendor documents none); exact-length bodies end in \b so a longer hex or
// base64 run is not cut into a "token".
var vendorTokens = []vendorToken{
	{"whsec_", `whsec_[A-Za-z0-9+/]{24,}`},                                                                 // Stripe webhook signing secret
	{"GOCSPX-", `GOCSPX-[A-Za-z0-9_-]{24,}`},                                                               // Google OAuth client secret
	{"npm_", `npm_[A-Za-z0-9]{36}\b`},                                                                      // npm access token
	{"pypi-Ag", `pypi-Ag[A-Za-z0-9_-]{50,}`},                                                               // PyPI upload token (macaroon)
	{"hf_", `hf_[A-Za-z0-9]{30,}`},                                                                         // Hugging Face user token
	{"api_org_", `api_org_[A-Za-z0-9]{30,}`},                                                               // Hugging Face org token
	{"shpat_ shpca_ shppa_ shpss_", `shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b`},                                // Shopify access tokens
	{"dop_v1_ doo_v1_ dor_v1_", `do[por]_v1_[a-f0-9]{64}\b`},                                               // DigitalOcean PAT, OAuth, refresh
	{"hvs. hvb. hvr.", `hv[sbr]\.[A-Za-z0-9_-]{24,}`},                                                      // HashiCorp Vault service, batch, recovery
	{"AGE-SECRET-KEY-1", `AGE-SECRET-KEY-1[0-9A-Z]{58}\b`},                                                 // age identity
	{"dapi", `dapi[a-f0-9]{32}(?:-[0-9]+)?\b`},                                                             // Databricks PAT
	{"glsa_", `glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}\b`},                                                     // Grafana service account
	{"glc_", `glc_[A-Za-z0-9+/]{32,}={0,2}`},                                                               // Grafana Cloud
	{"gldt- glrt- glptt- glcbt- gloas- glft- glimt-", `gl(?:dt|rt|ptt|cbt|oas|ft|imt)-[A-Za-z0-9_-]{20,}`}, // GitLab deploy, runner, trigger... tokens
	{"lin_api_", `lin_api_[A-Za-z0-9]{40}\b`},                                                              // Linear
	{"ntn_", `ntn_[A-Za-z0-9]{40,}`},                                                                       // Notion integration
	{"PMAK-", `PMAK-[a-f0-9]{24}-[a-f0-9]{34}\b`},                                                          // Postman
	{"sntrys_ sntryu_", `sntry[su]_[A-Za-z0-9+/=_-]{40,}`},                                                 // Sentry org, user tokens
	{"NRAK-", `NRAK-[A-Z0-9]{27}\b`},                                                                       // New Relic user API key
	{"dp.pt. dp.st. dp.sa. dp.ct. dp.scim. dp.audit.", `dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,}`}, // Doppler
	{"pul-", `pul-[a-f0-9]{40}\b`},                                                                         // Pulumi
	{"sbp_", `sbp_[a-f0-9]{40}\b`},                                                                         // Supabase
	{"pscale_", `pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.=-]{32,}`},                                            // PlanetScale
	{"sq0atp- sq0csp-", `sq0(?:atp|csp)-[A-Za-z0-9_-]{22,}`},                                               // Square
	{"tskey-", `tskey-[a-z]+-[A-Za-z0-9]{8,}-[A-Za-z0-9]{16,}`},                                            // Tailscale
	{"gsk_", `gsk_[A-Za-z0-9]{48,}`},                                                                       // Groq
	{"xai-", `xai-[A-Za-z0-9]{60,}`},                                                                       // xAI
	{"pplx-", `pplx-[A-Za-z0-9]{40,}`},                                                                     // Perplexity
	{"r8_", `r8_[A-Za-z0-9]{37,}`},                                                                         // Replicate
	{"ATATT3", `ATATT3[A-Za-z0-9_=-]{100,}`},                                                               // Atlassian API token
	{"rubygems_", `rubygems_[a-f0-9]{48}\b`},                                                               // RubyGems
	{"fo1_", `fo1_[A-Za-z0-9_-]{40,}`},                                                                     // Fly.io
	{"squ_ sqp_ sqa_", `sq[upa]_[a-f0-9]{40}\b`},                                                           // SonarQube user, project, analysis
	{"bkua_", `bkua_[a-f0-9]{40}\b`},                                                                       // Buildkite
	{"CCIPAT_", `CCIPAT_[A-Za-z0-9]{20,}_[a-f0-9]{40}\b`},                                                  // CircleCI
	{"LTAI", `LTAI[A-Za-z0-9]{20}\b`},                                                                      // Alibaba Cloud access key id
	{"AKCp", `AKCp[A-Za-z0-9]{69}\b`},                                                                      // JFrog
	{"ops_eyJ", `ops_eyJ[A-Za-z0-9+/=_-]{100,}`},                                                           // 1Password service account
	{"pnu_", `pnu_[A-Za-z0-9]{36}\b`},                                                                      // Prefect
	{"FLWSECK", `FLWSECK(?:_TEST)?-[a-h0-9]{32}-X`},                                                        // Flutterwave
	{"dckr_pat_", `dckr_pat_[A-Za-z0-9_-]{27,}`},                                                           // Docker Hub PAT
	{"figd_", `figd_[A-Za-z0-9_-]{40,}`},                                                                   // Figma
	{"Q~", `[A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34}`},                                               // Azure AD client secret
}

// vendorRule builds the vendor-token family: one expression over every
// prefix of vendorTokens, each prefix a keyword.
func vendorRule() rule {
	keys := make([]string, 0, len(vendorTokens))
	alts := make([]string, 0, len(vendorTokens))
	for _, v := range vendorTokens {
		for _, p := range strings.Fields(v.prefixes) {
			if k := strings.ToLower(p); indexOf(keys, k) < 0 {
				keys = append(keys, k)
			}
		}
		alts = append(alts, v.expr)
	}
	return newRule("vendor-token", keys, `(?:^|[^A-Za-z0-9_])(?P<secret>`+strings.Join(alts, "|")+`)`, randomSecret)
}
