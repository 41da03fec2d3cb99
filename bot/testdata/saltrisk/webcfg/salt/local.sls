{#- A web server's configuration file under the minion's eos_data_dir, and the service that
    watches it: a changed file restarts the service. Its process signature is the minion's own,
    so Salt finds it running; the tests only plan (test=True), which restarts nothing. #}
{%- set root = salt['config.get']('eos_data_dir', '') ~ '/srv/webcfg' %}

webcfg-config:
  file.managed:
    - name: {{ (root ~ '/webcfg.conf') | yaml_dquote }}
    - makedirs: True
    - contents: {{ ('port=' ~ pillar['port']) | yaml_dquote }}

webcfg-service:
  service.running:
    - name: eos-demo-webcfg
    - sig: salt-minion
    - watch:
      - file: webcfg-config
