# A test blueprint for the example policies (examples/policies), planned with real Terraform on
# eoslab: a server behind a firewall that opens SSH, to the world unless --ssh-from narrows it.
# Not shipped in the binary.
service "bastion" {
  description = "an SSH bastion (policy example tests)"

  flag "ssh-from" {
    type        = string
    default     = "0.0.0.0/0"
    description = "the network allowed to reach port 22"
  }

  terraform {
    module = "terraform/local"
    variables = {
      name     = service.name
      env      = env
      ssh_from = flag.ssh-from
    }
  }
}
