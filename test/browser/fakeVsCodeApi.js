// Stands in for the API VS Code injects into a webview (a real VS Code is exercised by the e2e tier).
// Posted messages cross a JSON boundary as they do between webview and host; state lives in
// sessionStorage so it survives a reload the way VS Code's getState/setState does.
(() => {
  const STATE_KEY = 'fake-vscode-state';
  const posted = [];
  const cspViolations = [];
  let acquired = false;
  window.__panelTest = { posted, cspViolations };
  document.addEventListener('securitypolicyviolation', (event) => {
    cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`);
  });
  window.acquireVsCodeApi = () => {
    if (acquired) throw new Error('An instance of the VS Code API has already been acquired');
    acquired = true;
    return Object.freeze({
      postMessage: (message) => {
        posted.push(JSON.parse(JSON.stringify(message)));
      },
      getState: () => {
        const raw = sessionStorage.getItem(STATE_KEY);
        return raw ? JSON.parse(raw) : undefined;
      },
      setState: (state) => {
        sessionStorage.setItem(STATE_KEY, JSON.stringify(state));
        return state;
      },
    });
  };
  const theme = new URLSearchParams(location.search).get('theme') === 'light' ? 'light' : 'dark';
  document.body.classList.add(`vscode-${theme}`);
  document.body.setAttribute('data-vscode-theme-kind', `vscode-${theme}`);
})();
