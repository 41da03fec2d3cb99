# A test blueprint for redaction: its Terraform module holds a sensitive value, which must
# never reach chat, logs or the audit log. Not shipped in the binary.
service "apikey" {
  description = "a client holding a sensitive API key"

  flag "label" {
    type        = string
    default     = "one"
    pattern     = "[a-z0-9-]+"
    description = "the client's label"
  }

  terraform {
    module    = "terraform"
    variables = { name = flag.label }
  }
}
