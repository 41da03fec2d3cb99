service "nomadholdsdataunknown" {
  description = "a check fixture"

  nomad {
    job        = "nomad/local.nomad.hcl"
    holds_data = ["db"]
    variant "production" {
      job        = "nomad/production.nomad.hcl"
      holds_data = ["db"]
    }
    variables = { env = env }
  }
}
