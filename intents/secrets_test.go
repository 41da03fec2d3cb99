package intents

import (
	"errors"
	"strings"
	"testing"
)

// A mistake in a message that carries a secret never repeats the secret: not in the message,
// not in the caret display, whatever the mistake and wherever the secret stands.
func TestErrorsNeverRepeatASecret(t *testing.T) {
	p := NewParser(testCatalog(t))
	const secret = "hunter2"
	for _, text := range []string{
		"@eos create nextcloud --admin-pasword hunter2",               // a typo of a secret flag
		"@eos create nextcloud --admin-password hunter2 --colour x",   // another mistake after it
		"@eos craete nextcloud --admin-password=hunter2",              // the verb is wrong
		`@eos create nextcloud --admin-password "hunter2`,             // an unterminated quote
		"@eos create nextcloud --api-token hunter2",                   // a flag that says token
		"@eos create nextclod --db-password 'hunter2'",                // the service is wrong
		"@eos destroy nextcloud --admin-password hunter2 --purge-sec", // flags of another verb
	} {
		_, err := p.Parse(text)
		var pe *Error
		if !errors.As(err, &pe) {
			t.Errorf("%q parsed; the test wants a mistake", text)
			continue
		}
		if strings.Contains(pe.Error(), secret) || strings.Contains(pe.Caret(), secret) {
			t.Errorf("%q: the error repeats the secret:\n%s\n%s", text, pe.Error(), pe.Caret())
		}
		if masked, found := p.MaskSecrets(text); !found || strings.Contains(masked, secret) {
			t.Errorf("MaskSecrets(%q) = %q, %v", text, masked, found)
		}
	}
}

func TestMaskSecretsKeepsColumnsAndOtherValues(t *testing.T) {
	p := NewParser(testCatalog(t))
	for _, tc := range []struct{ in, want string }{
		{"@eos create nextcloud --admin-password hunter2 --size large", "@eos create nextcloud --admin-password ••••••• --size large"},
		{"@eos create nextcloud --admin-password=pässwörd", "@eos create nextcloud --admin-password=••••••••"},
		{"@eos create nextcloud --sso --domain cloud.example.org", "@eos create nextcloud --sso --domain cloud.example.org"},
	} {
		got, found := p.MaskSecrets(tc.in)
		if got != tc.want || found != (got != tc.in) {
			t.Errorf("MaskSecrets(%q) = %q, %v; want %q", tc.in, got, found, tc.want)
		}
	}
}
