service "saltyaml" {
  description = "a check fixture"

  terraform {
    module = "terraform/local"
    variant "production" {
      module = "terraform/production"
    }
    variables = { name = service.name }
  }

  salt {
    state  = "salt/app.sls"
    pillar = { name = service.name }
  }
}
