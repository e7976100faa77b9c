/** The part of markdown-it's API the panel uses (the package ships no types; @types/markdown-it is not needed for this). */
declare module 'markdown-it' {
  interface Options {
    html?: boolean;
    linkify?: boolean;
    typographer?: boolean;
    breaks?: boolean;
  }
  class MarkdownIt {
    constructor(options?: Options);
    render(src: string): string;
    renderInline(src: string): string;
    disable(rules: string | string[]): this;
  }
  export default MarkdownIt;
}
