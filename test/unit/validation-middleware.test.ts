import { ServiceBroker } from "moleculer";
import { Joi } from "../../lib/joi";
import { NoParamsSchema } from "../../lib/schemas";
import { ValidationMiddleware } from "../../middlewares/validation.middleware";

/** The validation middleware on a broker of its own: what a handler receives, what is refused. */
describe("the validation middleware", () => {
  const broker = new ServiceBroker({ logger: false, validator: false, middlewares: [ValidationMiddleware] });
  const Named = Joi.object({ name: Joi.string().required(), size: Joi.number().integer().default(10) });

  beforeAll(async () => {
    broker.createService({
      name: "probe",
      actions: {
        plain: { schema: NoParamsSchema, handler: ctx => ctx.params },
        named: { schema: Named, handler: ctx => ctx.params }
      }
    });
    await broker.start();
  });
  afterAll(() => broker.stop());
  afterEach(() => jest.restoreAllMocks());

  test("an action without params called with none runs without a Joi pass", async () => {
    const validate = jest.spyOn(NoParamsSchema, "validate");
    await expect(broker.call("probe.plain", {})).resolves.toEqual({});
    await expect(broker.call("probe.plain")).resolves.toEqual({});
    expect(validate).not.toHaveBeenCalled();
  });

  test("an action without params still refuses unsafe text, and anything but an object", async () => {
    await expect(broker.call("probe.plain", { q: "a\u0000b" })).rejects.toMatchObject({ type: "VALIDATION_FAILED" });
    await expect(broker.call("probe.plain", { __proto__x: 1, q: "fine" })).resolves.toEqual({ __proto__x: 1, q: "fine" });
    await expect(broker.call("probe.plain", "text" as never)).rejects.toMatchObject({ type: "VALIDATION_FAILED" });
  });

  test("an action with params gets the validated value, or every problem by field", async () => {
    await expect(broker.call("probe.named", { name: "Amel" })).resolves.toEqual({ name: "Amel", size: 10 });
    const refused = await broker.call("probe.named", { size: 1.5 }).catch((err: unknown) => err);
    expect(refused).toMatchObject({ type: "VALIDATION_FAILED" });
    expect((refused as { data: { details: Array<{ field: string }> } }).data.details.map(d => d.field).sort()).toEqual(["name", "size"]);
  });
});
