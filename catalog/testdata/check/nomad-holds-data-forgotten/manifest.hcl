service "nomadholdsdataforgotten" {
  description = "a check fixture"

  nomad {
    job        = "nomad/local.nomad.hcl"
    holds_data = ["app"]
    variant "production" {
      job = "nomad/production.nomad.hcl"
    }
    variables = { env = env }
  }
}
