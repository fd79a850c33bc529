// placeholder: topology work
