"""oxidec as a step in other projects' builds: the `build` command's outputs (PTX, cubins,
C/C++ headers, Rust modules), their names and the depfiles that tell make and ninja when to
rebuild them."""
