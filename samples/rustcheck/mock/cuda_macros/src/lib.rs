use proc_macro::TokenStream;
#[proc_macro_attribute]
pub fn kernel(_a: TokenStream, item: TokenStream) -> TokenStream { item }
#[proc_macro_attribute]
pub fn device(_a: TokenStream, item: TokenStream) -> TokenStream { item }
/// Makes the module pub so that the test runner can reach the kernels.
#[proc_macro_attribute]
pub fn cuda_module(_a: TokenStream, item: TokenStream) -> TokenStream {
    let mut ts: TokenStream = "pub".parse().unwrap();
    ts.extend(item);
    ts
}
