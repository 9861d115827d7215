// Throwaway: first-load JS (gzip) of a route from the build's manifest.
const fs=require('fs');const zlib=require('zlib');
const f=fs.readdirSync('build/client/assets').find(n=>n.startsWith('manifest-'));
const m=JSON.parse(fs.readFileSync('build/client/assets/'+f,'utf8').replace(/^window.__reactRouterManifest=/,'').replace(/;$/,''));
const gz=(p)=>zlib.gzipSync(fs.readFileSync('build/client'+p),{level:9}).length;
for (const route of process.argv.slice(2)) {
  const set=new Set([m.entry.module,...(m.entry.imports||[])]);
  const add=(r)=>{const x=m.routes[r]; if(!x) return; set.add(x.module); (x.imports||[]).forEach(i=>set.add(i)); if(x.parentId) add(x.parentId)};
  add(route);
  const rows=[...set].map(p=>[p,gz(p)]).sort((a,b)=>b[1]-a[1]);
  console.log(route, 'total KiB gzip', (rows.reduce((s,[,n])=>s+n,0)/1024).toFixed(1));
  if (process.env.V) rows.slice(0,12).forEach(([p,s])=>console.log('   ',(s/1024).toFixed(1).padStart(6),p));
}
