service "undeclared" {
  description = "a nomad variable the job does not declare"

  nomad {
    job = "nomad/undeclared.nomad.hcl"
    variables = {
      env    = env
      domain = "x.local.test"
    }
  }
}
