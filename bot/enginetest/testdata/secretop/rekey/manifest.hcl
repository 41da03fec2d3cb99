# A test blueprint: an operation with a secret flag, which, typed in chat, is refused and
# masked like a service's. Not shipped in the binary.
operation "rekey" "volume" {
  description = "re-key an encrypted volume"

  arg "name" {
    type        = string
    description = "the volume"
  }

  flag "unlock-phrase" {
    type        = string
    secret      = true
    description = "the current passphrase (never typed in chat)"
  }

  terraform {
    module    = "terraform"
    variables = { name = arg.name }
  }
}
