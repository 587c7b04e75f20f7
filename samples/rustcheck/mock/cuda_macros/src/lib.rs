use proc_macro::TokenStream;
#[proc_macro_attribute]
pub fn kernel(_a: TokenStream, item: TokenStream) -> TokenStream { item }
#[proc_macro_attribute]
pub fn device(_a: TokenStream, item: TokenStream) -> TokenStream { item }
/// Makes the module pub so that the test runner can reach the kernels
/// (after the module's other outer attributes, e.g. `#[allow(arithmetic_overflow)]`).
#[proc_macro_attribute]
pub fn cuda_module(_a: TokenStream, item: TokenStream) -> TokenStream {
    let tokens: Vec<proc_macro::TokenTree> = item.into_iter().collect();
    let mut at = 0;
    while at + 1 < tokens.len() && matches!(&tokens[at], proc_macro::TokenTree::Punct(p) if p.as_char() == '#') {
        at += 2; // `#` and its `[...]`
    }
    let mut ts: TokenStream = tokens[..at].iter().cloned().collect();
    ts.extend("pub".parse::<TokenStream>().unwrap());
    ts.extend(tokens[at..].iter().cloned());
    ts
}
