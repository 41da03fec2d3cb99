service "saltyaml" {
  description = "a check fixture"

  terraform {
    module = "terraform/local"
    variant "production" {
      module = "terraform/production"
    }
    variables = { name = "${service.name}-${env}" }
  }

  salt {
    state  = "salt/app.sls"
    pillar = { name = "${service.name}-${env}" }
  }
}
