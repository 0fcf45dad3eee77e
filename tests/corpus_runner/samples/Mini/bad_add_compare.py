from validation_runtime import compare_outputs
compare_outputs(1e-6)
