// The heap of issue 4 in Jolt (npm jolt-physics 1.1.0, single-threaded WebAssembly), loaded from
// a file that bench_heap writes (TUMBLE_HEAP_EXPORT), so both engines start from the very same
// bodies. Prints one JSON line: bodies faster than 0.05 m/s at step 600 (t = 10 s), the settle
// time (the last step with any body that fast, over STEPS steps) and Jolt's sleeping state.
//
//   node heap_settle.mjs HEAP.json [STEPS=900] [--no-damping] [--slop M] [--no-sleep]
//
// Jolt's defaults are kept except: friction 0.5 and restitution 0 from the file, mass 1 kg,
// 10 velocity steps, 1 collision step of 1/60 s, convex radius 0 (the hull exactly).
import initJolt from 'jolt-physics/wasm';
import fs from 'fs';

const args = process.argv.slice(2);
const file = args.find((a) => a.endsWith('.json'));
if (!file) {
  console.error('usage: node heap_settle.mjs HEAP.json [STEPS] [--no-damping] [--slop M] [--no-sleep]');
  process.exit(2);
}
const stepsArg = args.find((a) => /^\d+$/.test(a));
const STEPS = stepsArg ? Number(stepsArg) : 900;
if (STEPS < 600) {
  console.error(`heap_settle.mjs: STEPS ${STEPS}: expected at least 600 (the count is taken at step 600)`);
  process.exit(2);
}
const noDamping = args.includes('--no-damping');
const noSleep = args.includes('--no-sleep');
const slopAt = args.indexOf('--slop');
const slop = slopAt >= 0 ? Number(args[slopAt + 1]) : null;

const Jolt = await initJolt();
const bodiesIn = JSON.parse(fs.readFileSync(file, 'utf8'));

const STATIC = 0, MOVING = 1;
const pairs = new Jolt.ObjectLayerPairFilterTable(2);
pairs.EnableCollision(STATIC, MOVING);
pairs.EnableCollision(MOVING, MOVING);
const layers = new Jolt.BroadPhaseLayerInterfaceTable(2, 2);
layers.MapObjectToBroadPhaseLayer(STATIC, new Jolt.BroadPhaseLayer(0));
layers.MapObjectToBroadPhaseLayer(MOVING, new Jolt.BroadPhaseLayer(1));
const settings = new Jolt.JoltSettings();
settings.mMaxBodies = bodiesIn.length + 16;
settings.mMaxBodyPairs = 16384;
settings.mMaxContactConstraints = 16384;
settings.mObjectLayerPairFilter = pairs;
settings.mBroadPhaseLayerInterface = layers;
settings.mObjectVsBroadPhaseLayerFilter = new Jolt.ObjectVsBroadPhaseLayerFilterTable(layers, 2, pairs, 2);
const jolt = new Jolt.JoltInterface(settings);
const system = jolt.GetPhysicsSystem();
const bodyInterface = system.GetBodyInterface();
system.SetGravity(new Jolt.Vec3(0, -9.81, 0));
const ps = system.GetPhysicsSettings();
ps.mNumVelocitySteps = 10;
if (slop !== null) ps.mPenetrationSlop = slop;
system.SetPhysicsSettings(ps);

const shapes = new Map();
const dynamic = [];
for (const b of bodiesIn) {
  const key = JSON.stringify(b.points);
  let shape = shapes.get(key);
  if (!shape) {
    const hull = new Jolt.ConvexHullShapeSettings();
    for (const p of b.points) hull.mPoints.push_back(new Jolt.Vec3(p[0], p[1], p[2]));
    hull.mMaxConvexRadius = 0.0;
    const made = hull.Create();
    if (made.HasError()) throw new Error(`${file}: hull: ${made.GetError().c_str()}`);
    shape = made.Get();
    shape.AddRef();
    shapes.set(key, shape);
  }
  const [w, x, y, z] = b.rot;
  const motion = b.static ? Jolt.EMotionType_Static : Jolt.EMotionType_Dynamic;
  const create = new Jolt.BodyCreationSettings(shape, new Jolt.RVec3(...b.pos), new Jolt.Quat(x, y, z, w),
                                               motion, b.static ? STATIC : MOVING);
  create.mFriction = b.friction;
  create.mRestitution = 0;
  if (!b.static) {
    create.mOverrideMassProperties = Jolt.EOverrideMassProperties_CalculateInertia;
    create.mMassPropertiesOverride.mMass = 1.0;
    if (noDamping) create.mLinearDamping = create.mAngularDamping = 0;
    if (noSleep) create.mAllowSleeping = false;
  }
  const body = bodyInterface.CreateBody(create);
  bodyInterface.AddBody(body.GetID(), b.static ? Jolt.EActivation_DontActivate : Jolt.EActivation_Activate);
  if (!b.static) dynamic.push(body);
  Jolt.destroy(create);
}
system.OptimizeBroadPhase();

let lastMoving = 0, moving10 = null, awake10 = null;
for (let step = 1; step <= STEPS; ++step) {
  jolt.Step(1 / 60, 1);
  let moving = 0;
  for (const b of dynamic) {
    const v = b.GetLinearVelocity();
    if (Math.hypot(v.GetX(), v.GetY(), v.GetZ()) > 0.05) ++moving;
  }
  if (moving > 0) lastMoving = step;
  if (step === 600) {
    moving10 = moving;
    awake10 = dynamic.filter((b) => b.IsActive()).length;
  }
}
console.log(JSON.stringify({
  heap: file.split('/').pop(), bodies: dynamic.length, moving_at_10s: moving10, awake_at_10s: awake10,
  settle_s: +(lastMoving / 60).toFixed(3), steps: STEPS, damping: !noDamping, sleep: !noSleep,
  slop: system.GetPhysicsSettings().mPenetrationSlop,
}));
