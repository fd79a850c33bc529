// placeholder: implemented by the core work
