// The checkout area's door: what the rest of the service may use of it. Everything else in checkout/ is its own
// (src/areas.test.ts checks it); its builder, area.ts, is for the composition root, app.ts, alone.
// Nothing of it is used elsewhere: the area only serves its routes.
export {}
