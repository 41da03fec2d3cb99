package vault

import "crypto/rand"

// alphabet is what generated secrets are made of: letters and digits without the ones people
// confuse when they read a secret aloud or copy it by hand (0 O o 1 l I). 56 characters, so
// each carries about 5.8 bits.
const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789"

// generate returns n characters drawn uniformly from alphabet with crypto/rand. Bytes at or
// above the largest multiple of len(alphabet) are rejected, so no character is more likely
// than another.
func generate(n int) string {
	const limit = 256 - 256%len(alphabet)
	out := make([]byte, 0, n)
	buf := make([]byte, n+n/2)
	for len(out) < n {
		rand.Read(buf) // never fails (crypto/rand, Go 1.24+)
		for _, b := range buf {
			if int(b) >= limit {
				continue
			}
			out = append(out, alphabet[int(b)%len(alphabet)])
			if len(out) == n {
				break
			}
		}
	}
	return string(out)
}
