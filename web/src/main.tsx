// The table pages' router: one small app, routed by the URL's fragment.
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { NewSession, GmTable } from "./gm";
import { Join, Play } from "./player";
import { Watch } from "./watch";
import { Difficulty } from "./difficulty";
import { Campaign, NewCampaign } from "./campaign";
import "./style.css";

const go = (hash: string): void => {
  location.hash = hash;
};

function Page({ route }: { route: string[] }) {
  const [head, a, b] = route;
  switch (head) {
    case "gm":
      return a ? <GmTable id={a} /> : <NewSession go={go} />;
    case "join":
      return <Join code={a} go={go} />;
    case "play":
      return a ? <Play id={a} /> : <Join go={go} />;
    case "watch":
      return a && b ? <Watch id={a} token={b} /> : <p>Open the feed from the GM's link.</p>;
    case "campaign":
      return a ? <Campaign id={a} /> : <NewCampaign go={go} />;
    case "difficulty":
      return <Difficulty />;
    default:
      return (
        <div class="home panel">
          <h2>Run a table</h2>
          <ul>
            <li><a href="#/gm">GM screen: start a labyrinth session</a></li>
            <li><a href="#/join">Join a table with a code</a></li>
            <li><a href="#/campaign">Campaign clock</a></li>
            <li><a href="#/difficulty">How hard is this labyrinth?</a></li>
          </ul>
        </div>
      );
  }
}

function App() {
  const parse = (): string[] => location.hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
  const [route, setRoute] = useState(parse);
  useEffect(() => {
    const changed = (): void => setRoute(parse());
    addEventListener("hashchange", changed);
    return () => removeEventListener("hashchange", changed);
  }, []);
  const watching = route[0] === "watch";
  return (
    <>
      {!watching && (
        <nav class="top" aria-label="Pages">
          <a href="#/" class="brand">Daedalus</a>
          <a href="#/gm">GM</a>
          <a href="#/join">Join</a>
          <a href="#/campaign">Campaign</a>
          <a href="#/difficulty">Difficulty</a>
        </nav>
      )}
      <div id="dice-tray" aria-hidden="true" />
      <main key={route.join("/")} class={watching ? "wide" : undefined}>
        <Page route={route} />
      </main>
    </>
  );
}

render(<App />, document.getElementById("app")!);
